// run_command with a working directory, an explicit environment, stderr apart, bounded
// output and a timeout that stops the whole process group.
#include "core/command.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

CommandSpec shell(const std::string& script, double timeout_seconds) {
  CommandSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.timeout_seconds = timeout_seconds;
  spec.separate_stderr = true;
  return spec;
}

TEST(RunCommand, RunsInTheGivenDirectoryWithOnlyTheGivenEnvironment) {
  test::TempDir dir;
  auto spec = shell("pwd; echo \"[$ONLY][${HOME-unset}]\"; echo oops >&2; exit 3", 10);
  spec.cwd = dir.path().string();
  spec.environment = std::vector<std::string>{"ONLY=1"};
  const auto outcome = run_command(spec);
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.output, dir.path().string() + "\n[1][unset]\n");
  EXPECT_EQ(outcome.error_output, "oops\n");
  EXPECT_FALSE(outcome.timed_out);
}

TEST(RunCommand, KeepsOnlyTheBoundOfItsOutputAndStillFinishes) {
  auto spec = shell("head -c 1000000 /dev/zero; head -c 500000 /dev/zero >&2", 30);
  spec.output_limit = 1000;
  const auto outcome = run_command(spec);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.output.size(), 1000u);
  EXPECT_EQ(outcome.error_output.size(), 1000u);
}

TEST(RunCommand, AnOverrunKillsTheGroupEvenWhenItClosedItsOutput) {
  const auto outcome = run_command(shell("exec >/dev/null 2>&1; sleep 30 & wait", 0.5));
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.exit_code, std::nullopt);
}

// What a caller's signal handler reads to pass a termination on to the child's group.
TEST(RunCommand, TheRunningGroupIsKnownWhileTheChildRuns) {
  std::atomic<int> group{0};
  int seen = 0;
  std::thread watcher([&] {
    for (int i = 0; i < 2000 && seen == 0; ++i) {
      seen = group.load();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  auto spec = shell("echo $$; sleep 0.3", 10);
  spec.running_group = &group;
  const auto outcome = run_command(spec);
  watcher.join();
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(std::to_string(seen) + "\n", outcome.output);  // a group of its own: its id is the child's pid
  EXPECT_EQ(group.load(), 0);
}

TEST(RunCommand, AProgramThatDoesNotExistIsALaunchError) {
  CommandSpec spec;
  spec.argv = {"tipc-no-such-program"};
  const auto outcome = run_command(spec);
  EXPECT_NE(outcome.launch_error.find("tipc-no-such-program"), std::string::npos);
  EXPECT_EQ(outcome.exit_code, std::nullopt);
}

// The reason a command failed is its own: a launch error is never read as the program's output.
TEST(RunCommand, TheFailureSaysWhyInOneLine) {
  const auto missing = run_command({"tipc-no-such-program"});
  EXPECT_FALSE(missing.ok());
  EXPECT_TRUE(missing.output.empty());
  EXPECT_EQ(missing.failure(), missing.launch_error);
  const auto failed = run_command({"sh", "-c", "echo first; echo second; exit 3"});
  EXPECT_EQ(failed.exit_code, 3);
  EXPECT_EQ(failed.failure(), "first");
  EXPECT_EQ(run_command({"sh", "-c", "exit 1"}).failure(), "no output");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
