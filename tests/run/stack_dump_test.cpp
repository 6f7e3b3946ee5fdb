// A hung Python stage, run for real, has its stacks in its log before it is stopped: one
// spinning in Python code, one stuck in a C call (issue 40). Native stacks where gdb or
// eu-stack is installed and may attach.
#include "run/stack_dump.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "run/process_executor.h"
#include "run/scheduler.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

class StackDump : public ::testing::Test {
 protected:
  // Runs `code` with python3 as one stage under an idle timeout of 1 s; its log.
  std::string run_python(const std::string& code) {
    plan::Plan plan;
    plan.config_path = "c.txt";
    plan::Stage stage;
    stage.id = "hang";
    stage.argv = {"/usr/bin/python3", "-c", code};
    stage.cwd = ".";
    stage.log = "hang.log";
    plan.stages = {stage};
    SchedulerOptions options;
    options.repo_root = dir_.path().string();
    options.timeouts.idle = 1;
    options.timeouts.grace = 1;
    ProcessExecutor executor(SignalWatch::install());
    Listener quiet;
    summary_ = run_stages({&plan}, executor, quiet, options, [] { return false; });
    return test::slurp((dir_.path() / "hang.log").string());
  }
  void SetUp() override {
    if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  }

  test::TempDir dir_;
  RunSummary summary_;
};

TEST_F(StackDump, APythonLoopShowsWhereItSpins) {
  const std::string log =
      run_python("print('started', flush=True)\ndef spin():\n    while True:\n        pass\nspin()\n");
  ASSERT_EQ(summary_.stages.at(0).verdict.result, Status::kTimeout);
  EXPECT_EQ(summary_.stages.at(0).verdict.reason, "no output for 1 s");
  const auto marker = log.find(kStackDumpMarker);
  ASSERT_NE(marker, std::string::npos) << log;
  const auto frames = log.find("(most recent call first):", marker);
  ASSERT_NE(frames, std::string::npos) << log;
  const auto spin = log.find(" in spin\n", frames);  // line 3 or 4, where the signal found it
  ASSERT_NE(spin, std::string::npos) << log;
  EXPECT_EQ(log.rfind("  File \"<string>\", line ", spin), log.rfind('\n', spin) + 1) << log;
  EXPECT_NE(log.find("File \"<string>\", line 5 in <module>", frames), std::string::npos) << log;
}

TEST_F(StackDump, APythonStuckInACCallShowsTheCallingLine) {
  const std::string log = run_python("import ctypes\nprint('started', flush=True)\nctypes.CDLL(None).sleep(1000)\n");
  ASSERT_EQ(summary_.stages.at(0).verdict.result, Status::kTimeout);
  EXPECT_NE(log.find("File \"<string>\", line 3 in <module>"), std::string::npos) << log;
}

TEST_F(StackDump, NativeStacksWhereADebuggerCanAttach) {
  if (native_stack_tool().empty()) GTEST_SKIP() << "neither eu-stack nor gdb is installed";
  const std::string log = run_python("import ctypes\nprint('started', flush=True)\nctypes.CDLL(None).sleep(1000)\n");
  const auto header = log.find("tipc-run: native stack of pid ");
  ASSERT_NE(header, std::string::npos) << log;
  EXPECT_NE(
      log.find("python3 -c import ctypes print('started', flush=True) ctypes.CDLL(None).sleep(1000) ) from ", header),
      std::string::npos)
      << "the command on the header's one line: " << log;
  EXPECT_NE(log.find("from " + native_stack_tool() + ":", header), std::string::npos) << log;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
