#include "history/run_history.h"

#include <filesystem>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gate/run_comparison.h"
#include "gate/run_pool.h"
#include "support/sample_report.h"
#include "support/temp_dir.h"

namespace tipc::history {
namespace {
namespace TIPC_TEST_FILE {

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
              std::tie(y.config, y.mode, y.stage, y.kind, y.result, y.seconds))
        << x.stage;
    ASSERT_EQ(x.figures.size(), y.figures.size()) << x.stage;
    for (std::size_t f = 0; f < x.figures.size(); ++f) {
      const auto &p = x.figures[f], &q = y.figures[f];
      EXPECT_EQ(std::tie(p.name, p.unit, p.better, p.samples, p.gated_by_default),
                std::tie(q.name, q.unit, q.better, q.samples, q.gated_by_default))
          << p.name;
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

TEST(RunHistory, ARunIsRecordedOnceByItsStartFinishAndRepositoryRoot) {
  test::TempDir dir;
  RunHistory history = opened((dir.path() / "h.sqlite").string());
  report::RunReport report = test::sample_run_report();
  const auto first = history.record_new(report, "/repo/out");
  ASSERT_TRUE(first) << first.error().str();
  EXPECT_EQ(std::tie(first->id, first->already), std::tuple(1, false));
  const auto moved = history.record_new(report, "/elsewhere/copy");  // the same run, copied
  ASSERT_TRUE(moved) << moved.error().str();
  EXPECT_EQ(std::tie(moved->id, moved->already), std::tuple(1, true));
  EXPECT_EQ((*history.run(1))->output_dir, "/repo/out");
  report.finished = *report.finished + 1;
  EXPECT_EQ(history.record_new(report, "/repo/out")->id, 2);
  report.repo_root = "/other";
  EXPECT_EQ(history.record_new(report, "/repo/out")->id, 3);
  EXPECT_EQ(history.runs(10)->size(), 3u);
  EXPECT_EQ(history.snapshot(1)->stages.size(), gate::snapshot_of(report, "").stages.size());
}

// Two threads at once, each with its own connection to `path`, each calling `write(history,
// which)` `times` times; their errors ("" for none).
template <class Write>
std::vector<std::string> write_from_two_threads(const std::string& path, int times, const Write& write) {
  std::vector<std::string> errors(2);
  const auto writer = [&](int which) {
    auto history = RunHistory::open(path);
    if (!history) return void(errors[which] = history.error().str());
    for (int i = 0; i < times; ++i) {
      if (const Result<void> wrote = write(*history, which); !wrote) return void(errors[which] = wrote.error().str());
    }
  };
  std::thread first(writer, 0), second(writer, 1);
  first.join();
  second.join();
  return errors;
}

TEST(RunHistory, TwoImportsOfOneRunAtOnceRecordItOnce) {
  test::TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  opened(path);
  const report::RunReport report = test::sample_run_report();
  const auto errors = write_from_two_threads(path, 10, [&](RunHistory& history, int) -> Result<void> {
    TRY(history.record_new(report, "out"));
    return {};
  });
  EXPECT_EQ(errors, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(opened(path).runs(100)->size(), 1u);
}

TEST(RunHistory, TwoWritersAtOnceLoseNothing) {
  test::TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  opened(path);  // created and migrated before the writers race
  const report::RunReport report = test::sample_run_report();
  const auto errors = write_from_two_threads(path, 15, [&](RunHistory& history, int which) -> Result<void> {
    TRY(history.record(report, std::to_string(which)));
    return {};
  });
  EXPECT_EQ(errors, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(opened(path).runs(100)->size(), 30u);
}

// Two first runs that create the file at once: one migrates it, the other waits for the
// lock, sees the new version and records (no "table runs already exists").
TEST(RunHistory, TwoRunsCreatingANewFileAtOnceBothRecord) {
  test::TempDir dir;
  const report::RunReport report = test::sample_run_report();
  for (int trial = 0; trial < 20; ++trial) {
    const std::string path = (dir.path() / fmt::format("h{}.sqlite", trial)).string();
    const auto errors = write_from_two_threads(path, 1, [&](RunHistory& history, int which) -> Result<void> {
      TRY(history.record(report, std::to_string(which)));
      return {};
    });
    EXPECT_EQ(errors, (std::vector<std::string>{"", ""})) << trial;
    EXPECT_EQ(opened(path).runs(10)->size(), 2u) << trial;
  }
}

TEST(RunHistory, ANewerSchemaOrAnotherFileIsRefusedWithTheFileNamed) {
  test::TempDir dir;
  const std::string newer = (dir.path() / "newer.sqlite").string();
  { RunHistory history = opened(newer); }
  {
    auto db = Database::open(newer, 100);
    ASSERT_TRUE(db && db->execute("PRAGMA user_version = 99"));
  }
  const auto refused = RunHistory::open(newer);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().str(), newer + ": the run history has schema version 99, newer than this tipc-run's " +
                                       std::to_string(kSchemaVersion));

  const std::string garbage = dir.write("garbage.sqlite", std::string(4096, 'x'));
  const auto damaged = RunHistory::open(garbage);
  ASSERT_FALSE(damaged);
  EXPECT_NE(damaged.error().str().find(garbage + ": "), std::string::npos) << damaged.error().str();
  EXPECT_NE(damaged.error().str().find("not a database"), std::string::npos) << damaged.error().str();
}

TEST(RunHistory, AVersionOneFileIsMigratedAndKeepsItsRuns) {
  test::TempDir dir;
  const std::string path = (dir.path() / "v1.sqlite").string();
  const report::RunReport report = test::sample_run_report();
  ASSERT_TRUE(opened(path).record(report, "out"));
  {
    auto db = Database::open(path, 100);  // as tipc-run with schema 1 left it
    ASSERT_TRUE(db && db->execute("DROP INDEX runs_by_start; PRAGMA user_version = 1"));
  }
  RunHistory history = opened(path);
  auto db = Database::open(path, 100);
  ASSERT_TRUE(db);
  auto version = db->prepare("PRAGMA user_version");
  ASSERT_TRUE(version && version->step());
  EXPECT_EQ(version->integer(0), 2);
  auto index = db->prepare("SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_start'");
  ASSERT_TRUE(index && index->step());
  EXPECT_EQ(index->integer(0), 1);
  const auto again = history.record_new(report, "elsewhere");
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_EQ(std::tie(again->id, again->already), std::tuple(1, true));
}

TEST(RunHistory, SamplesArePackedAsDoubles) {
  const std::vector<double> samples{1.5, -2.25, 1e300};
  EXPECT_EQ(pack_samples(samples).size(), 24u);
  EXPECT_EQ(unpack_samples(pack_samples(samples)), samples);
  EXPECT_TRUE(unpack_samples({}).empty());
}

// Five runs on `branch` whose train's GPU memory peaked around `memory_mib`, a few MiB apart
// as a caching allocator's reservations are.
void record_gpu_runs(RunHistory& history, const std::string& branch, double memory_mib) {
  for (int i = 0; i < 5; ++i) {
    report::RunReport run = test::sample_run_report();
    run.environment->repository->branch = branch;
    report::StageReport& train = run.plans[0].stages[0];
    train.gpu.samples = 30;
    train.gpu.memory_peak_mib = memory_mib + 8 * (i % 3);
    train.gpu.utilization_mean_percent = 80 + i;
    ASSERT_TRUE(history.record(run, branch));
  }
}

// A branch's last five runs as one side of `tipc-run compare`.
gate::RunSnapshot branch_pool(RunHistory& history, const std::string& branch) {
  const auto runs = history.latest_runs(branch, 5);
  EXPECT_TRUE(runs && runs->size() == 5u);
  std::vector<gate::RunSnapshot> snapshots;
  for (auto run = runs->rbegin(); run != runs->rend(); ++run) snapshots.push_back(history.snapshot(run->id).value());
  return gate::pool_runs(snapshots, branch);
}

const gate::FigureComparison& train_figure(const gate::RunComparison& comparison, const std::string& name) {
  for (const auto& figure : comparison.stages.at(0).figures) {
    if (figure.name == name) return figure;
  }
  throw std::runtime_error("no figure " + name);
}

TEST(RunHistory, AGpuMemoryPeakThatGrewOverRecordedRunsIsRegressedAndASteadyOneIsNot) {
  test::TempDir dir;
  RunHistory history = opened((dir.path() / "h.sqlite").string());
  record_gpu_runs(history, "main", 10240);
  record_gpu_runs(history, "steady", 10244);
  record_gpu_runs(history, "grown", 12288);
  const gate::RunSnapshot main = branch_pool(history, "main");
  ASSERT_EQ(main.stages.at(0).stage, "norm_train/gpus_-1/train");

  const gate::RunComparison grown = gate::compare_runs(main, branch_pool(history, "grown"), {});
  const gate::FigureComparison& memory = train_figure(grown, "gpu:memory_peak_mib");
  EXPECT_EQ(memory.result, gate::Class::kRegressed) << memory.comparison.why;
  EXPECT_EQ(memory.unit, "MiB");
  EXPECT_EQ(std::tie(memory.base_samples, memory.current_samples), std::tuple(5u, 5u));  // a run each
  ASSERT_TRUE(memory.comparison.p_value);  // enough runs for the test, beside the thresholds
  EXPECT_LT(*memory.comparison.p_value, 0.05);
  EXPECT_EQ(train_figure(grown, "gpu:utilization_mean_percent").result, gate::Class::kUnchanged);

  const gate::RunComparison steady = gate::compare_runs(main, branch_pool(history, "steady"), {});
  EXPECT_EQ(train_figure(steady, "gpu:memory_peak_mib").result, gate::Class::kUnchanged);
  EXPECT_FALSE(steady.failed());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::history
