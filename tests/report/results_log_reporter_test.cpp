// results_python.log as the run writes it: a line per stage that ran, and a log that
// cannot be written said at once, naming the file and the system's reason.
#include "report/results_log_reporter.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/fake_run.h"
#include "support/run_binary.h"

namespace tipc::report {
namespace {
using plan::StageKind;
using test::fake_stage;

plan::Plan plan_with_status_lines() {
  auto p = test::fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  p.results_log = p.output_dir + "/results_python.log";
  p.status_line = "{word} {model}";
  return p;
}

TEST(ResultsLogReporter, EveryStageThatRanWritesOneLine) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  ResultsLogReporter results(run.repo.path().string(), false);
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "");
  EXPECT_EQ(test::slurp(run.output() + "/results_python.log"), "Run successfully m\nRun successfully m\n");
}

// A traced runner's lines for commands it never started (Plan::leading_status_lines,
// Stage::trailing_status_lines) are its own bytes: compat writes them where the runner did,
// and tipc-run's own log, which holds only what ran, leaves them out.
TEST(ResultsLogReporter, CompatWritesTheRunnersLinesOfCommandsItNeverStartedWhereItDid) {
  auto p = plan_with_status_lines();
  p.banner = "banner";
  p.leading_status_lines = {"Run successfully export (never started)"};
  p.stages[0].trailing_status_lines = {"Run failed server (never started)"};
  for (const bool compat : {true, false}) {
    test::FakeRun run;
    ResultsLogReporter results(run.repo.path().string(), compat);
    run.run({&p}, {&results});
    EXPECT_EQ(test::slurp(run.output() + "/results_python.log"),
              compat ? "banner\nRun successfully export (never started)\nRun successfully m\n"
                       "Run failed server (never started)\nRun successfully m\n"
                     : "banner\nRun successfully m\nRun successfully m\n");
  }
}

// A line the runner writes with another stage's exit status (Stage::status_from) has that
// stage's word in compat, as the runner writes it; tipc-run's own log has the stage's own.
TEST(ResultsLogReporter, CompatWritesAnotherStagesWordWhereTheRunnerDid) {
  auto p = plan_with_status_lines();
  p.stages[1].status_from = "train";
  for (const bool compat : {true, false}) {
    test::FakeRun run;
    run.script("eval").exit_code = 1;
    ResultsLogReporter results(run.repo.path().string(), compat);
    run.run({&p}, {&results});
    EXPECT_EQ(test::slurp(run.output() + "/results_python.log"),
              compat ? "Run successfully m\nRun successfully m\n" : "Run successfully m\nRun failed m\n");
  }
}

// /dev/full fails every write with ENOSPC, as a full disk does (and root cannot get past it).
TEST(ResultsLogReporter, AFullDiskIsAWriteErrorNamingTheFileAndTheReason) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  const std::string log = run.output() + "/results_python.log";
  std::filesystem::create_directories(run.output());
  std::filesystem::create_symlink("/dev/full", log);
  ResultsLogReporter results(run.repo.path().string(), false);
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "cannot write " + log + ": No space left on device");
}

TEST(ResultsLogReporter, ALogThatCannotBeOpenedIsAWriteError) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  const std::string log = run.output() + "/results_python.log";
  std::filesystem::create_directories(log + "/x");
  ResultsLogReporter results(run.repo.path().string(), false);
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "cannot write " + log + ": Is a directory");
}

}  // namespace
}  // namespace tipc::report
