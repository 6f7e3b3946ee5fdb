#include "report/console_reporter.h"

#include <cstdlib>
#include <regex>

#include <gtest/gtest.h>

#include "run/scheduler.h"
#include "support/fake_executor.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(ConsoleStyle, NoColorAndClicolorForceAreHonoured) {
  setenv("CLICOLOR_FORCE", "1", 1);
  unsetenv("NO_COLOR");
  EXPECT_TRUE(ConsoleStyle::detect(-1).color);
  EXPECT_FALSE(ConsoleStyle::detect(-1).rewrite);  // not a terminal
  setenv("NO_COLOR", "1", 1);
  EXPECT_FALSE(ConsoleStyle::detect(-1).color);
  unsetenv("CLICOLOR_FORCE");
  unsetenv("NO_COLOR");
  EXPECT_FALSE(ConsoleStyle::detect(-1).color);
}

// What a reporter prints, captured.
class Captured {
 public:
  Captured() : out_(open_memstream(&buffer_, &size_)) {}
  ~Captured() {
    std::fclose(out_);
    std::free(buffer_);
  }
  Captured(const Captured&) = delete;
  Captured& operator=(const Captured&) = delete;
  std::FILE* file() { return out_; }
  std::string text() {
    std::fflush(out_);
    return std::string(buffer_, size_);
  }

 private:
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* out_;
};

TEST(ConsoleReporter, PlainLinesNameResultAndReasonAndFailuresShowTheLogTail) {
  test::TempDir dir;
  std::string log;
  for (int i = 1; i <= 40; ++i) log += "line " + std::to_string(i) + "\n";
  const std::string log_path = dir.write("stage.log", log);
  plan::Plan plan;
  plan::Stage stage;
  stage.id = "norm_train/gpus_0/autocast_null/train";
  stage.argv = {"python3", "train.py", "--epochs=1"};
  stage.cwd = ".";
  run::StageRecord record;
  record.plan = &plan;
  record.stage = &stage;
  record.start_seconds = 1;
  record.end_seconds = 3.5;
  record.log_path = log_path;
  record.verdict = {run::Status::kFail, "exit code 2"};
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  reporter.run_started({{&plan}, 1, 1, {{}, "none"}});
  reporter.stage_finished(record);
  const std::string text = out.text();
  EXPECT_NE(text.find("[1/1] FAIL        norm_train/gpus_0/autocast_null/train (2.5 s) - exit code 2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    command: python3 train.py --epochs=1\n"), std::string::npos);
  EXPECT_NE(text.find("line 11\n"), std::string::npos);
  EXPECT_EQ(text.find("line 10\n"), std::string::npos);  // exactly the last 30 lines
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

TEST(ConsoleReporter, AFailedCheckListsItsFailingValuesWorstFirstAndAPassedOneNothing) {
  plan::Plan plan;
  plan::Stage stage;
  stage.id = "export/check/eager_vs_onnx";
  run::StageRecord record;
  record.plan = &plan;
  record.stage = &stage;
  record.verdict = {run::Status::kFail, "exit code 1"};
  CheckDetails check;
  check.kind = CheckKind::kDiff;
  check.values = {
      {"logits: mean", 1e-7, 1e-6, true}, {"logits: max", 2e-5, 1e-6, false}, {"probs: max", 3e-3, 1e-6, false}};
  check.notes = {"only in B: logits.bias"};
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  reporter.check_finished(record, check);
  record.verdict = {run::Status::kPass, ""};
  reporter.check_finished(record, check);
  const std::string text = out.text();
  EXPECT_EQ(text,
            "    check values:\n"
            "      probs: max = 0.003 > limit 1e-06: FAIL\n"
            "      logits: max = 2e-05 > limit 1e-06: FAIL\n"
            "      note: only in B: logits.bias\n");
}

plan::Stage stage_of(const std::string& id, plan::StageKind kind, int gpus, std::vector<std::string> deps = {}) {
  plan::Stage stage;
  stage.id = id;
  stage.kind = kind;
  stage.argv = {"python3", id};
  stage.cwd = ".";
  stage.log = id + ".log";
  stage.needs.gpus = gpus;
  stage.deps = std::move(deps);
  return stage;
}

run::RunSummary run_on_fake(const plan::Plan& plan, run::FakeExecutor& fake, run::Listener& listener) {
  run::SchedulerOptions options;
  options.resources.source = "--gpus";
  options.repo_root = "/repo";
  return run::run_stages({&plan}, fake, listener, options, [] { return false; });
}

TEST(ConsoleReporter, TheFirstLineCountsStagesJobsAndGpusInWords) {
  Captured out;
  plan::Plan plan;
  ConsoleReporter reporter(out.file(), {false, false});
  reporter.run_started({{&plan}, 1, 1, {{}, "none"}});
  reporter.run_started({{&plan}, 2, 4, {{{"0", 1}, {"1", 1}}, "nvidia-smi -L"}});
  EXPECT_EQ(out.text(),
            "tipc-run: 1 stage, 1 job, GPUs: none\n"
            "tipc-run: 2 stages, 4 jobs, GPUs: 0, 1 (nvidia-smi -L)\n");
}

TEST(ConsoleReporter, TheFirstLineNamesTheGpusAsTheDriverDescribedThem) {
  Captured out;
  plan::Plan plan;
  ConsoleReporter reporter(out.file(), {false, false});
  const run::ResourceSpec gpus{{{"0", 1, 0, "NVIDIA H100 80GB HBM3", "GPU-9f8e7d6c-1111-2222"},
                                {"MIG-5a4b3c2d-0000", 1, 1, "MIG 1g.10gb", "MIG-5a4b3c2d-0000"}},
                               "nvidia-smi -L"};
  reporter.run_started({{&plan}, 2, 2, gpus});
  EXPECT_EQ(out.text(),
            "tipc-run: 2 stages, 2 jobs, GPUs: GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e…), "
            "GPU 1 MIG 1g.10gb (MIG-5a4b…) (nvidia-smi -L)\n");
}

// A process the run did not start holds memory on the GPU all run long: every stage there sees
// it, the console says it once.
TEST(ConsoleReporter, AStagesGpuWarningsFollowItsLineEachTextOncePerRun) {
  plan::Plan plan;
  const plan::Stage train = stage_of("train", plan::StageKind::kTrain, 1);
  const plan::Stage eval = stage_of("eval", plan::StageKind::kEval, 1);
  const std::string held = "GPU 0: pid 4242 (python3 other.py) holds 2048 MiB, not started by this run";
  const auto record = [&](const plan::Stage& stage, std::vector<std::string> warnings) {
    run::StageRecord r;
    r.plan = &plan;
    r.stage = &stage;
    r.start_seconds = 0;
    r.end_seconds = 1;
    r.verdict = {run::Status::kPass, ""};
    r.gpu_warnings = std::move(warnings);
    return r;
  };
  const auto printed = [&](ConsoleStyle style) {
    Captured out;
    ConsoleReporter reporter(out.file(), style);
    reporter.run_started({{&plan}, 2, 1, {{}, "none"}});
    reporter.stage_finished(record(train, {held, "GPU 0: memory of the previous stage still held\x1b[2J"}));
    reporter.stage_finished(record(eval, {held}));
    return out.text();
  };
  const std::string text = printed({false, false});
  EXPECT_NE(text.find("[1/2] PASS        train (1.0 s)\n    GPU warning (train): " + held +
                      "\n    GPU warning (train): GPU 0: memory of the previous stage still held\\x1b[2J\n"
                      "[2/2] PASS        eval (1.0 s)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("GPU warning (eval)"), std::string::npos) << text;
  // On a terminal a pass is the status line's; its warnings are lines of their own.
  EXPECT_NE(printed({true, false}).find("\n    GPU warning (train): " + held + "\n"), std::string::npos);
  EXPECT_EQ(printed({false, false, true}).find("GPU warning"), std::string::npos);  // quiet
}

TEST(ConsoleReporter, StagesThatCouldNotRunAreSummarisedOnceAtTheEndByTheReasonAtTheirRoot) {
  plan::Plan plan;
  plan.config_path = "c.txt";
  plan.stages = {stage_of("gpu/train", plan::StageKind::kTrain, 1),
                 stage_of("gpu/eval", plan::StageKind::kEval, 0, {"gpu/train"}),
                 stage_of("gpu/export", plan::StageKind::kExport, 0, {"gpu/train"}),
                 stage_of("gpu/infer", plan::StageKind::kInfer, 0, {"gpu/export"}),
                 stage_of("two/train", plan::StageKind::kTrain, 2),
                 stage_of("cpu/train", plan::StageKind::kTrain, 0)};
  run::FakeExecutor fake;
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  run_on_fake(plan, fake, reporter);
  const std::string text = out.text();
  EXPECT_EQ(text.find("UNSUPPORTED"), std::string::npos) << text;  // no line of its own
  const std::string summary =
      "tipc-run: 5 stages could not run here:\n"
      "  4 stages (needs 1 GPU; none available (--gpus)): gpu/train, gpu/eval, gpu/export and 1 more\n"
      "  1 stage (needs 2 GPUs; none available (--gpus)): two/train\n"
      "tipc-run: 1 passed, ";
  const auto at = text.find(summary);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_GT(at, text.find("PASS        cpu/train"));  // at the end, after the stages that ran
}

// In a suite two configs have stages of one id: the summary names each stage's config.
TEST(ConsoleReporter, InASuiteTheStagesThatCouldNotRunAreNamedWithTheirConfig) {
  plan::Plan one, two;
  one.config_path = "configs/alexnet.txt";
  two.config_path = "configs/alexnet_2nodes.txt";
  one.mode = two.mode = "lite_train_lite_infer";
  one.stages = {stage_of("gpu/train", plan::StageKind::kTrain, 1)};
  two.stages = {stage_of("gpu/train", plan::StageKind::kTrain, 1)};
  run::FakeExecutor fake;
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  run::SchedulerOptions options;
  options.resources.source = "--gpus";
  options.repo_root = "/repo";
  run::run_stages({&one, &two}, fake, reporter, options, [] { return false; });
  EXPECT_NE(out.text().find("  2 stages (needs 1 GPU; none available (--gpus)): alexnet.txt: gpu/train, "
                            "alexnet_2nodes.txt: gpu/train\n"),
            std::string::npos)
      << out.text();
}

TEST(ConsoleReporter, StagesAfterLeftOutOnesThatCouldNotRunShareTheReasonOfThose) {
  plan::Plan plan;
  plan.config_path = "c.txt";
  plan.stages = {stage_of("a/check", plan::StageKind::kCheck, 0), stage_of("b/check", plan::StageKind::kCheck, 0)};
  plan.stages[0].unselected_deps = {{"a/export", {1, 1}}};  // --only check left its producer out
  plan.stages[1].unselected_deps = {{"b/export", {1, 1}}};
  run::FakeExecutor fake;
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  run_on_fake(plan, fake, reporter);
  EXPECT_NE(out.text().find("tipc-run: 2 stages could not run here:\n"
                            "  2 stages (needs 1 GPU; none available (--gpus)): a/check, b/check\n"),
            std::string::npos)
      << out.text();
}

TEST(ConsoleReporter, ACheckThatFailsLikeAnEarlierOneRefersToItInsteadOfRepeatingItsDetails) {
  test::TempDir dir;
  plan::Plan plan;
  std::vector<plan::Stage> stages = {stage_of("bs1/check", plan::StageKind::kCheck, 0),
                                     stage_of("bs4/check", plan::StageKind::kCheck, 0),
                                     stage_of("bs8/check", plan::StageKind::kCheck, 0)};
  CheckDetails alike;
  alike.values = {{"a.ppm", 0.02, 0.001, false}, {"b.ppm", 0, 0.001, true}};
  CheckDetails other = alike;
  other.values[0].value = 0.03;
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  reporter.run_started({{&plan}, stages.size(), 1, {{}, "none"}});
  for (std::size_t i = 0; i < stages.size(); ++i) {
    run::StageRecord record;
    record.plan = &plan;
    record.stage = &stages[i];
    record.start_seconds = 0;
    record.end_seconds = 1;
    record.log_path = dir.write(std::to_string(i) + ".log", "the check's own table\n");
    record.verdict = {run::Status::kFail, "exit code 1"};
    reporter.stage_finished(record);
    reporter.check_finished(record, i == 2 ? other : alike);
  }
  const std::string text = out.text();
  EXPECT_NE(text.find("[2/3] FAIL        bs4/check (1.0 s) - exit code 1\n    same failures as check bs1/check\n"),
            std::string::npos)
      << text;
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("the check's own table"), 2u);  // bs1 and bs8, not bs4
  EXPECT_EQ(count("a.ppm = 0.02 > limit 0.001: FAIL"), 1u);
  EXPECT_EQ(count("a.ppm = 0.03 > limit 0.001: FAIL"), 1u);  // other values: shown in full
}

TEST(ConsoleReporter, AFailedCheckWithoutValuesStillShowsItsCommandAndLog) {
  test::TempDir dir;
  plan::Plan plan;
  const plan::Stage stage = stage_of("crashed/check", plan::StageKind::kCheck, 0);
  run::StageRecord record;
  record.plan = &plan;
  record.stage = &stage;
  record.start_seconds = 0;
  record.end_seconds = 1;
  record.log_path = dir.write("check.log", "Traceback: boom\n");
  record.verdict = {run::Status::kFail, "exit code 1"};
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  reporter.stage_finished(record);  // no check_finished: it wrote no JSON
  reporter.run_finished({});
  const std::string text = out.text();
  EXPECT_NE(text.find("    command: python3 crashed/check\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Traceback: boom\n"), std::string::npos) << text;
}

TEST(ConsoleReporter, InALogAStageGetsAStartLineAndAStillRunningLineEachMinute) {
  plan::Plan plan;
  plan.config_path = "c.txt";
  plan.stages = {stage_of("train", plan::StageKind::kTrain, 0), stage_of("eval", plan::StageKind::kEval, 0, {"train"})};
  run::FakeExecutor fake;
  fake.scripts["c.txt#train"].seconds = 150;  // virtual seconds: the test does not wait
  fake.scripts["c.txt#eval"].seconds = 59;
  Captured out;
  ConsoleReporter reporter(out.file(), {false, false});
  run_on_fake(plan, fake, reporter);
  const std::string text = out.text();
  EXPECT_NE(text.find("[0/2] started     train\n"
                      "[0/2] still running: train (for 1m)\n"
                      "[0/2] still running: train (for 2m)\n"
                      "[1/2] PASS        train (150.0 s)\n"
                      "[1/2] started     eval\n"
                      "[2/2] PASS        eval (59.0 s)\n"),
            std::string::npos)
      << text;
}

TEST(ConsoleReporter, OnATerminalNoStillRunningLines) {
  plan::Plan plan;
  plan.config_path = "c.txt";
  plan.stages = {stage_of("train", plan::StageKind::kTrain, 0)};
  run::FakeExecutor fake;
  fake.default_script.seconds = 150;
  Captured out;
  ConsoleReporter reporter(out.file(), {true, false});
  run_on_fake(plan, fake, reporter);
  EXPECT_EQ(out.text().find("still running"), std::string::npos) << out.text();
}

TEST(RunningTime, MinutesThenHoursAndMinutes) {
  EXPECT_EQ(running_time(2), "2m");
  EXPECT_EQ(running_time(59), "59m");
  EXPECT_EQ(running_time(65), "1h 05m");
}

TEST(LogTail, ReturnsTheLastLines) {
  test::TempDir dir;
  EXPECT_EQ(log_tail(dir.write("a.log", "1\n2\n3\n"), 2), "2\n3\n");
  EXPECT_EQ(log_tail(dir.write("b.log", "1\n2"), 5), "1\n2");
  EXPECT_EQ(log_tail((dir.path() / "missing").string(), 5), "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

// Three stages on the fake executor: a train that fails with a traceback in its log, an
// eval that passes, an infer that fails without a log line that says error.
struct FailingRun {
  test::TempDir dir;
  plan::Plan plan;
  run::FakeExecutor fake;

  FailingRun() {
    plan.config_path = "c.txt";
    plan.stages = {stage_of("a/train", plan::StageKind::kTrain, 0), stage_of("a/eval", plan::StageKind::kEval, 0),
                   stage_of("a/infer", plan::StageKind::kInfer, 0)};
    fake.scripts["c.txt#a/train"].exit_code = 2;
    fake.scripts["c.txt#a/infer"].exit_code = 1;
    dir.write("a/train.log", "epoch 1\nTraceback (most recent call last):\n  File \"t.py\"\nValueError: lr is nan\n");
    dir.write("a/infer.log", "loading\n");
  }
  std::string run(ConsoleStyle style) {
    Captured out;
    ConsoleReporter reporter(out.file(), style);
    run::SchedulerOptions options;
    options.resources.source = "--gpus";
    options.repo_root = dir.path().string();
    run::run_stages({&plan}, fake, reporter, options, [] { return false; });
    return out.text();
  }
  std::string log(const std::string& id) const { return (dir.path() / (id + ".log")).string(); }
};

TEST(ConsoleReporter, EveryRunEndsWithARecapOfTheStagesToLookAtWithTheirLogsAndErrorLines) {
  FailingRun failing;
  const std::string text = failing.run({false, false});
  const std::string recap =
      "tipc-run: 2 stages to look at:\n"
      "  FAIL        a/train\n"
      "              log: " +
      failing.log("a/train") +
      "\n"
      "              ValueError: lr is nan\n"
      "  FAIL        a/infer\n"
      "              log: " +
      failing.log("a/infer") + "\n";
  ASSERT_NE(text.find(recap), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with(recap)) << text;  // after the counts line: the last thing read
  EXPECT_LT(text.find("tipc-run: 1 passed, 2 failed"), text.find(recap));
}

TEST(ConsoleReporter, APassingRunHasNoRecap) {
  FailingRun passing;
  passing.fake.scripts.clear();
  EXPECT_EQ(passing.run({false, false}).find("to look at"), std::string::npos);
}

TEST(ConsoleReporter, QuietPrintsTheFailuresAndTheRecapOnly) {
  FailingRun failing;
  ConsoleStyle quiet{false, false, true};
  const std::string text = failing.run(quiet);
  EXPECT_EQ(text.find("tipc-run: 3 stages"), std::string::npos) << text;  // no header
  EXPECT_EQ(text.find("started"), std::string::npos) << text;
  EXPECT_EQ(text.find("PASS"), std::string::npos) << text;
  EXPECT_EQ(text.find("passed,"), std::string::npos) << text;  // no counts line
  EXPECT_NE(text.find("FAIL        a/train (1.0 s) - exit code 2\n    command: python3 a/train\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("tipc-run: 2 stages to look at:\n"), std::string::npos) << text;
  // On a terminal too: no status line.
  EXPECT_EQ(failing.run({true, false, true}).find('\r'), std::string::npos);
}

// The text without the codes the reporter writes itself: its colours and, on a terminal,
// the rewrite of its status line ("\r[3/5] ...\x1b[K").
std::string without_own_codes(const std::string& text) {
  static const std::regex own("\x1b\\[(31|32|33|36|0)m|\r?\x1b\\[K|\r(?=\\[[0-9])");
  return std::regex_replace(text, own, "");
}

// The first byte a terminal would act on instead of showing it: a C0 control but tab and
// line feed, DEL, a C1 control (U+0080..U+009F) or a byte that is not UTF-8.
std::string::size_type first_raw_control(const std::string& text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f || byte == 0xff) return at;
    if (byte == 0xC2 && at + 1 < text.size() && static_cast<unsigned char>(text[at + 1]) < 0xA0) return at;
  }
  return std::string::npos;
}

constexpr const char* kHostile = "\x1b]0;title\x07\x1b[2J\r[PASS]\b\x7f\xC2\x9B\xff";

TEST(ConsoleReporter, NothingFromALogAConfigOrAPathReachesTheTerminalRaw) {
  FailingRun failing;
  const std::string hostile = kHostile;
  failing.plan.stages[0].id = "a/" + hostile + "train";  // a config-derived id, its log path alike
  failing.plan.stages[0].log = failing.plan.stages[0].id + ".log";
  failing.plan.stages[0].argv = {"python3", hostile};
  failing.plan.stages[0].cwd = hostile;
  failing.fake.scripts["c.txt#" + failing.plan.stages[0].id].exit_code = 2;
  failing.plan.stages.push_back(stage_of("gpu/" + hostile, plan::StageKind::kTrain, 1));  // UNSUPPORTED
  failing.dir.write(failing.plan.stages[0].log, "Error: " + hostile + "\nlast line " + hostile + "\n");
  for (const ConsoleStyle style : {ConsoleStyle{false, false}, ConsoleStyle{false, true}, ConsoleStyle{true, true},
                                   ConsoleStyle{false, false, true}}) {
    const std::string text = failing.run(style);
    const std::string shown = without_own_codes(text);
    EXPECT_EQ(first_raw_control(shown), std::string::npos) << shown;
    EXPECT_NE(shown.find("\\x1b]0;title\\x07\\x1b[2J\\x0d[PASS]\\x08\\x7f\\u009B\xEF\xBF\xBD"), std::string::npos)
        << shown;  // written out, where a reader sees what the log holds
  }
  const std::string text = failing.run({false, false});
  EXPECT_NE(text.find("FAIL        a/\\x1b]0;title"), std::string::npos) << text;         // the FAIL line
  EXPECT_NE(text.find("last line \\x1b]0;title"), std::string::npos) << text;             // the log's last lines
  EXPECT_NE(text.find("              Error: \\x1b]0;title"), std::string::npos) << text;  // the recap
  EXPECT_NE(text.find("(needs 1 GPU; none available (--gpus)): gpu/\\x1b]0;title"), std::string::npos) << text;
}

TEST(ConsoleReporter, ACheckFromAHostileResultFileShowsItsValuesAndNotesWrittenOut) {
  plan::Plan plan;
  const plan::Stage stage = stage_of("a/check", plan::StageKind::kCheck, 0);
  run::StageRecord record;
  record.plan = &plan;
  record.stage = &stage;
  record.verdict = {run::Status::kFail, "exit code 1"};
  CheckDetails check;
  check.values = {{std::string("logits") + kHostile, 2e-5, 1e-6, false}};
  check.notes = {std::string("only in B: ") + kHostile};
  Captured out;
  ConsoleReporter reporter(out.file(), {false, true});
  reporter.check_finished(record, check);
  const std::string text = without_own_codes(out.text());
  EXPECT_EQ(first_raw_control(text), std::string::npos) << text;
  EXPECT_NE(text.find("note: only in B: \\x1b]0;title"), std::string::npos) << text;
}

TEST(ConsoleStyle, QuietIsPassedThrough) {
  EXPECT_TRUE(ConsoleStyle::detect(-1, true).quiet);
  EXPECT_FALSE(ConsoleStyle::detect(-1).quiet);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
