#include "history/run_history.h"

#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "support/sample_report.h"
#include "support/temp_dir.h"

namespace tipc::history {
namespace {

RunHistory opened(const std::string& path) {
  auto history = RunHistory::open(path);
  EXPECT_TRUE(history) << history.error().str();
  return std::move(*history);
}

void expect_same(const gate::RunSnapshot& a, const gate::RunSnapshot& b) {
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (std::size_t i = 0; i < a.stages.size(); ++i) {
    const auto &x = a.stages[i], &y = b.stages[i];
    EXPECT_EQ(std::tie(x.config, x.mode, x.stage, x.kind, x.result, x.seconds),
              std::tie(y.config, y.mode, y.stage, y.kind, y.result, y.seconds)) << x.stage;
    ASSERT_EQ(x.figures.size(), y.figures.size()) << x.stage;
    for (std::size_t f = 0; f < x.figures.size(); ++f) {
      const auto &p = x.figures[f], &q = y.figures[f];
      EXPECT_EQ(std::tie(p.name, p.unit, p.better, p.samples, p.gated_by_default),
                std::tie(q.name, q.unit, q.better, q.samples, q.gated_by_default)) << p.name;
    }
  }
}

TEST(RunHistory, ARecordedRunReadsBackAsTheSameSnapshot) {
  test::TempDir dir;
  RunHistory history = opened((dir.path() / "history.sqlite").string());
  const report::RunReport report = test::sample_run_report();
  const auto id = history.record(report, "/repo/test_tipc/output");
  ASSERT_TRUE(id) << id.error().str();
  const auto snapshot = history.snapshot(*id);
  ASSERT_TRUE(snapshot) << snapshot.error().str();
  expect_same(*snapshot, gate::snapshot_of(report, ""));
  EXPECT_EQ(snapshot->label, "run 1");
  ASSERT_FALSE(snapshot->stages.front().figures.empty());
  EXPECT_EQ(snapshot->stages.front().figures.front().samples, (std::vector<double>{120.5}));  // after 2 warm-up steps

  const auto entry = history.run(*id);
  ASSERT_TRUE(entry && *entry);
  EXPECT_EQ((*entry)->verdict, "FAIL");
  EXPECT_EQ((*entry)->commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ((*entry)->output_dir, "/repo/test_tipc/output");
  EXPECT_FALSE(history.snapshot(*id + 1));
}

TEST(RunHistory, TheLatestRunOfACommitPrefixOrABranch) {
  test::TempDir dir;
  RunHistory history = opened((dir.path() / "h.sqlite").string());
  report::RunReport report = test::sample_run_report();
  ASSERT_TRUE(history.record(report, "a"));
  ASSERT_TRUE(history.record(report, "b"));
  report.environment->repository = report::RepositoryState{"fedcba9876543210fedcba9876543210fedcba98", "topic", false};
  ASSERT_TRUE(history.record(report, "c"));

  EXPECT_EQ((*history.latest("0123"))->output_dir, "b");
  EXPECT_EQ((*history.latest("main"))->output_dir, "b");
  EXPECT_EQ((*history.latest("topic"))->output_dir, "c");
  EXPECT_EQ((*history.latest("fedcba98"))->output_dir, "c");
  EXPECT_FALSE(*history.latest("012"));  // too short to be a commit
  EXPECT_FALSE(*history.latest("nope"));
  const auto newest = history.runs(2);
  ASSERT_TRUE(newest);
  ASSERT_EQ(newest->size(), 2u);
  EXPECT_EQ((*newest)[0].output_dir, "c");
  EXPECT_EQ((*newest)[1].output_dir, "b");
}

// The series walks the runs newest first and keeps the last N that have the figure: a run
// without it is passed over, not counted.
TEST(RunHistory, ASeriesIsTheLastRunsThatHaveTheFigureOldestFirst) {
  test::TempDir dir;
  RunHistory history = opened((dir.path() / "h.sqlite").string());
  report::RunReport report = test::sample_run_report();
  ASSERT_TRUE(history.record(report, "a"));
  report::RunReport without = report;
  for (auto& plan : without.plans) {
    for (auto& stage : plan.stages) stage.metrics.benchmark.reset();
  }
  ASSERT_TRUE(history.record(without, "b"));
  ASSERT_TRUE(history.record(report, "c"));
  ASSERT_TRUE(history.record(without, "d"));

  const auto outputs = [&](const std::string& name, const std::string& glob, std::size_t runs) {
    const auto points = history.series(name, glob, runs);
    EXPECT_TRUE(points) << points.error().str();
    std::vector<std::string> dirs;
    for (const SeriesPoint& point : points.value()) dirs.push_back(point.run.output_dir);
    return dirs;
  };
  EXPECT_EQ(outputs("ips", "*", 2), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(outputs("ips", "*", 1), (std::vector<std::string>{"c"}));
  EXPECT_EQ(outputs("ips", "*/train", 5), (std::vector<std::string>{"a", "c"}));
  EXPECT_TRUE(outputs("ips", "*/eval", 5).empty());
  EXPECT_TRUE(outputs("no such figure", "*", 5).empty());
  const auto last = history.series("ips", "*", 1);
  ASSERT_TRUE(last && last->size() == 1u);
  EXPECT_EQ(last->front().stage, "norm_train/gpus_-1/train");
  EXPECT_EQ(last->front().median, 120.5);
  EXPECT_EQ(last->front().samples, 1u);
}

TEST(RunHistory, TwoWritersAtOnceLoseNothing) {
  test::TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  opened(path);  // created and migrated before the writers race
  const report::RunReport report = test::sample_run_report();
  std::vector<std::string> errors(2);
  const auto writer = [&](int which) {
    auto history = RunHistory::open(path);
    if (!history) return void(errors[which] = history.error().str());
    for (int i = 0; i < 15; ++i) {
      if (auto id = history->record(report, std::to_string(which)); !id) return void(errors[which] = id.error().str());
    }
  };
  std::thread first(writer, 0), second(writer, 1);
  first.join();
  second.join();
  EXPECT_EQ(errors, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(opened(path).runs(100)->size(), 30u);
}

TEST(RunHistory, ANewerSchemaOrAnotherFileIsRefusedWithTheFileNamed) {
  test::TempDir dir;
  const std::string newer = (dir.path() / "newer.sqlite").string();
  {
    RunHistory history = opened(newer);
  }
  {
    auto db = Database::open(newer, 100);
    ASSERT_TRUE(db && db->execute("PRAGMA user_version = 99"));
  }
  const auto refused = RunHistory::open(newer);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().str(), newer + ": the run history has schema version 99, newer than this tipc-run's 1");

  const std::string garbage = dir.write("garbage.sqlite", std::string(4096, 'x'));
  const auto damaged = RunHistory::open(garbage);
  ASSERT_FALSE(damaged);
  EXPECT_NE(damaged.error().str().find(garbage + ": "), std::string::npos) << damaged.error().str();
  EXPECT_NE(damaged.error().str().find("not a database"), std::string::npos) << damaged.error().str();
}

TEST(RunHistory, SamplesArePackedAsDoubles) {
  const std::vector<double> samples{1.5, -2.25, 1e300};
  EXPECT_EQ(pack_samples(samples).size(), 24u);
  EXPECT_EQ(unpack_samples(pack_samples(samples)), samples);
  EXPECT_TRUE(unpack_samples({}).empty());
}

}  // namespace
}  // namespace tipc::history
