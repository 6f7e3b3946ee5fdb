// A run and the run history (history/run_recording), through tipc-run: recorded at its end,
// compared with --baseline, never failed by it.
#include "history/run_recording.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "history/run_history.h"
#include "support/fake_repo_run.h"

namespace tipc::history {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

class HistoryRecording : public test::FakeRepoTest {
 protected:
  std::string history() const { return (repo_.path() / "test_tipc/output/.tipc-history.sqlite").string(); }
};

TEST_F(HistoryRecording, AFinishedRunRecordsItselfBesideItsOutputs) {
  const auto first = run();
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("tipc-run: recorded as run 1 in " + history() + "\n"), std::string::npos) << first.out;
  ASSERT_EQ(run().exit_code, 0);
  auto runs = history::RunHistory::open(history(), false);
  ASSERT_TRUE(runs) << runs.error().str();
  const auto listed = runs->runs(10);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].verdict, "PARTIAL");  // its GPU inferences cannot run here
  const auto snapshot = runs->snapshot((*listed)[0].id);
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->stages.size(), 7u);
}

TEST_F(HistoryRecording, NoHistoryWhenAskedNot) {
  const auto off = run({"--no-history"});
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(off.out.find("recorded as run"), std::string::npos) << off.out;
  repo_.write("test_tipc/tipc-run.yaml", "history: false\n");
  EXPECT_EQ(run().exit_code, 0);
  EXPECT_FALSE(fs::exists(history()));
  EXPECT_EQ(run({"--no-history", "--history", "h.sqlite"}).exit_code, kExitUsage);
}

TEST_F(HistoryRecording, ADamagedHistoryIsAWarningAndChangesNothingElse) {
  repo_.write("test_tipc/output/.tipc-history.sqlite", std::string(8192, 'x'));
  const auto damaged = run();
  EXPECT_EQ(damaged.exit_code, 0) << damaged.out << damaged.err;
  EXPECT_NE(damaged.err.find("tipc-run: warning: the run is not recorded in the run history: " + history() + ": "),
            std::string::npos)
      << damaged.err;
  EXPECT_TRUE(fs::exists(output() / "report.json"));
  eval_prints_top1("0.5");
  repo_.write("eval-ok", "");
  EXPECT_EQ(test::run_tipc(repo_.path().string(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus",
                                                   "none", "--history", history(), "--baseline", "1"})
                .exit_code,
            0);  // no baseline to compare with: a warning, not a failure
}

TEST_F(HistoryRecording, ABaselineGatesTheRunAtItsEnd) {
  eval_prints_top1("0.90");
  ASSERT_EQ(run().exit_code, 0);
  eval_prints_top1("0.80");
  const auto worse = run({"--baseline", "1"});
  EXPECT_EQ(worse.exit_code, kExitRegressed) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("tipc-run compare: REGRESSED: this run against run 1: 1 regressed (1 failing)"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("eval:top1  0.9 -> 0.8  -11.11%"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("recorded as run 2"), std::string::npos) << worse.out;
  EXPECT_TRUE(
      worse.out.ends_with("tipc-run: exit 6: the run passed, and regressed against its baseline (--baseline)\n"))
      << worse.out;
  const auto again = run({"--baseline", "2"});  // the same figures: unchanged
  EXPECT_EQ(again.exit_code, 0) << again.out;
  const auto missing = run({"--baseline", "nosuchbranch"});
  EXPECT_EQ(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("tipc-run: warning: no baseline to compare with: `nosuchbranch` is no directory"),
            std::string::npos)
      << missing.err;
}

TEST_F(HistoryRecording, BisectTellsGoodFromBadFromUntestable) {
  eval_prints_top1("0.90");
  EXPECT_EQ(run({"--bisect"}).exit_code, 0);
  eval_prints_top1("0.80");
  EXPECT_EQ(run({"--bisect", "--baseline", "1"}).exit_code, 1);  // regressed
  repo_.write("test_tipc/configs/fake.txt", test::fake_config("train.py --exit 3"));
  EXPECT_EQ(run({"--bisect"}).exit_code, 1);  // a stage failed
  repo_.write("test_tipc/configs/fake.txt", test::fake_config("train.py", "0"));
  EXPECT_EQ(run({"--bisect"}).exit_code, 125);  // nothing could run: a GPU train without GPUs
  repo_.write("test_tipc/configs/fake.txt", "not a config\n");
  EXPECT_EQ(run({"--bisect"}).exit_code, 125);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::history
