// results_python.log as the run writes it: a line per stage that ran, and a log that
// cannot be written said at once, naming the file and the system's reason.
#include "report/results_log_reporter.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "compat/run_semantics.h"
#include "plan/traced_status.h"
#include "support/fake_run.h"
#include "support/run_binary.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
using plan::StageKind;
using test::fake_stage;

plan::Plan plan_with_status_lines() {
  auto p = test::fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  p.results_log = p.output_dir + "/results_python.log";
  p.status_line = "{status_word} {model_name}";
  return p;
}

// The results log of a run with the reference's semantics (--compat) or tipc-run's own.
std::unique_ptr<StatusLog> results_log(const test::FakeRun& run, bool reference) {
  return compat::run_semantics(reference, run.repo.path().string(), false).results_log;
}

// tipc-run's own word is the stage's result: what passed (as the exit code and the dependents
// take it) reads success, whatever the trainer's log or the exit code said.
TEST(ResultsLogReporter, ALineReadsSuccessForAResultThatPassed) {
  using run::Status;
  const std::pair<Status, bool> table[] = {
      {Status::kPass, true},     {Status::kFlaky, true},       {Status::kFail, false},        {Status::kTimeout, false},
      {Status::kSkipped, false}, {Status::kUnresolved, false}, {Status::kUnsupported, false},
  };
  for (const auto& [result, success] : table) EXPECT_EQ(line_reads_success(result), success) << to_string(result);
}

TEST(ResultsLogReporter, EveryStageThatRanWritesOneLine) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  ResultsLogReporter results(run.repo.path().string());
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "");
  EXPECT_EQ(test::slurp(run.output() + "/results_python.log"), "Run successfully m\nRun successfully m\n");
}

// A traced runner's lines for commands it never started (Plan::leading_status_lines,
// Stage::results_log.trailing_status_lines) are its own bytes: compat writes them where the runner did,
// and tipc-run's own log, which holds only what ran, leaves them out.
TEST(ResultsLogReporter, CompatWritesTheRunnersLinesOfCommandsItNeverStartedWhereItDid) {
  auto p = plan_with_status_lines();
  p.banner = "banner";
  p.leading_status_lines = {"Run successfully export (never started)"};
  p.stages[0].results_log.trailing_status_lines = {"Run failed server (never started)"};
  for (const bool compat : {true, false}) {
    test::FakeRun run;
    const auto results = results_log(run, compat);
    run.run({&p}, {results.get()});
    EXPECT_EQ(test::slurp(run.output() + "/results_python.log"),
              compat ? "banner\nRun successfully export (never started)\nRun successfully m\n"
                       "Run failed server (never started)\nRun successfully m\n"
                     : "banner\nRun successfully m\nRun successfully m\n");
  }
}

// A line the runner writes with another stage's exit status (Stage::results_log.status_from) has that
// stage's word in compat, as the runner writes it; tipc-run's own log has the stage's own.
TEST(ResultsLogReporter, CompatWritesAnotherStagesWordWhereTheRunnerDid) {
  auto p = plan_with_status_lines();
  p.stages[1].results_log.status_from = "train";
  for (const bool compat : {true, false}) {
    test::FakeRun run;
    run.script("eval").exit_code = 1;
    const auto results = results_log(run, compat);
    run.run({&p}, {results.get()});
    EXPECT_EQ(test::slurp(run.output() + "/results_python.log"),
              compat ? "Run successfully m\nRun successfully m\n" : "Run successfully m\nRun failed m\n");
  }
}

// PaddleDetection's C++ chain, traced: its inference program ./deploy/cpp/build/main was never
// built, so the stage cannot start. The runner's bash cannot execute the command either, and
// its status_check writes `Run failed`: compat writes that line, byte for byte the traced one.
// Its dependent (SKIPPED) and a stage impossible here (UNSUPPORTED) were never tried: no line
// in either mode, and tipc-run's own log keeps to the stages that ran.
TEST(ResultsLogReporter, CompatWritesRunFailedForAStageThatCouldNotStartAndNothingForOnesNeverTried) {
  auto p = test::fake_plan({fake_stage("export", StageKind::kExport), fake_stage("infer_cpp", StageKind::kInfer),
                            fake_stage("compare", StageKind::kInfer, {"infer_cpp"}),
                            fake_stage("infer_gpu", StageKind::kInfer, {}, 1)});
  p.results_log = p.output_dir + "/results_python.log";
  const std::string infer_log = "./log/ppyoloe/cpp_infer_cpu_usemkldnn_False_threads_1_mode_paddle_batchsize_1.log";
  const std::string after = " with command - ppyoloe_crn_s_300e_coco - ./deploy/cpp/build/main --use_gpu=False > " +
                            infer_log + " 2>&1  - " + infer_log + "  \033[0m";
  for (auto& stage : p.stages)
    stage.results_log.traced_status = plan::ResultsLogFields::TracedStatus{"\033[33m ", after};
  p.stages[1].argv = {"./deploy/cpp/build/main", "--use_gpu=False"};
  for (const bool compat : {true, false}) {
    test::FakeRun run;
    run.script("infer_cpp").launch_error =
        "cannot execute '" + run.repo.path().string() + "/./deploy/cpp/build/main': No such file or directory";
    const auto results = results_log(run, compat);
    const auto summary = run.run({&p}, {results.get()});
    ASSERT_EQ(summary.stages[1].verdict.result, run::Status::kUnresolved);
    ASSERT_EQ(summary.stages[2].verdict.result, run::Status::kSkipped);
    ASSERT_EQ(summary.stages[3].verdict.result, run::Status::kUnsupported);
    EXPECT_EQ(test::slurp(run.output() + "/results_python.log"),
              compat ? "\033[33m Run successfully" + after + "\n\033[33m Run failed" + after + "\n"
                     : " Run successfully" + plan::without_escape_codes(after) + "\n")
        << (compat ? "compat" : "default mode");
  }
}

// /dev/full fails every write with ENOSPC, as a full disk does (and root cannot get past it).
TEST(ResultsLogReporter, AFullDiskIsAWriteErrorNamingTheFileAndTheReason) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  const std::string log = run.output() + "/results_python.log";
  std::filesystem::create_directories(run.output());
  std::filesystem::create_symlink("/dev/full", log);
  ResultsLogReporter results(run.repo.path().string());
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "cannot write " + log + ": No space left on device");
}

TEST(ResultsLogReporter, ALogThatCannotBeOpenedIsAWriteError) {
  test::FakeRun run;
  const auto p = plan_with_status_lines();
  const std::string log = run.output() + "/results_python.log";
  std::filesystem::create_directories(log + "/x");
  ResultsLogReporter results(run.repo.path().string());
  run.run({&p}, {&results});
  EXPECT_EQ(results.write_error(), "cannot write " + log + ": Is a directory");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
