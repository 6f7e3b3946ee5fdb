#include "report/console_reporter.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::report {
namespace {

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
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  ConsoleReporter reporter(out, {false, false});
  reporter.run_started({{&plan}, 1, 1, {{}, "none"}});
  reporter.stage_finished(record);
  std::fclose(out);
  const std::string text(buffer, size);
  std::free(buffer);
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
  check.kind = "diff";
  check.values = {{"logits: mean", 1e-7, 1e-6, true}, {"logits: max", 2e-5, 1e-6, false}, {"probs: max", 3e-3, 1e-6, false}};
  check.notes = {"only in B: logits.bias"};
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  ConsoleReporter reporter(out, {false, false});
  reporter.check_finished(record, check);
  record.verdict = {run::Status::kPass, ""};
  reporter.check_finished(record, check);
  std::fclose(out);
  const std::string text(buffer, size);
  std::free(buffer);
  EXPECT_EQ(text,
            "    check values:\n"
            "      probs: max = 0.003 > limit 1e-06: FAIL\n"
            "      logits: max = 2e-05 > limit 1e-06: FAIL\n"
            "      note: only in B: logits.bias\n");
}

TEST(LogTail, ReturnsTheLastLines) {
  test::TempDir dir;
  EXPECT_EQ(log_tail(dir.write("a.log", "1\n2\n3\n"), 2), "2\n3\n");
  EXPECT_EQ(log_tail(dir.write("b.log", "1\n2"), 5), "1\n2");
  EXPECT_EQ(log_tail((dir.path() / "missing").string(), 5), "");
}

}  // namespace
}  // namespace tipc::report
