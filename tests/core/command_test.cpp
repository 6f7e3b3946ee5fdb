// run_command with a working directory, an explicit environment, stderr apart, bounded
// output and a timeout that stops the whole process group.
#include "core/command.h"

#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <thread>

#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

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

// The fields of /proc/self/status as the child saw them.
std::map<std::string, std::string> status_fields(const std::string& text) {
  std::map<std::string, std::string> fields;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto value = line.find_first_not_of(" \t", colon + 1);
    fields[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
  }
  return fields;
}

#define SKIP_UNLESS_ROOT()                                                                          \
  do {                                                                                              \
    if (geteuid() != 0) GTEST_SKIP() << "NOT CHECKED: only root can start a child as another user"; \
  } while (false)

// The trace sandbox's first step (trace/sandbox.h): nobody, with nothing to gain back. The
// ids change in the child alone: another thread of ours is still root afterwards.
TEST(RunCommand, RunAsStartsTheChildAsThatUserWithNoGroupsCapabilitiesOrNewPrivileges) {
  SKIP_UNLESS_ROOT();
  std::promise<void> started;
  std::promise<uid_t> seen;
  std::thread other([&] {
    started.get_future().wait();
    seen.set_value(static_cast<uid_t>(syscall(SYS_geteuid)));
  });
  CommandSpec spec;
  spec.argv = {"cat", "/proc/self/status"};
  spec.cwd = "/";
  spec.run_as = 65534;
  const auto outcome = run_command(spec);
  started.set_value();
  other.join();
  ASSERT_EQ(outcome.exit_code, 0) << outcome.failure();
  const auto fields = status_fields(outcome.output);
  EXPECT_EQ(fields.at("Uid"), "65534\t65534\t65534\t65534");
  EXPECT_EQ(fields.at("Gid"), "65534\t65534\t65534\t65534");
  EXPECT_EQ(fields.at("Groups"), "");
  for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"}) {
    EXPECT_EQ(fields.at(set), "0000000000000000") << set;
  }
  EXPECT_EQ(fields.at("NoNewPrivs"), "1");
  EXPECT_EQ(geteuid(), 0U);
  EXPECT_EQ(seen.get_future().get(), 0U) << "another thread of tipc-run changed its user";
}

// The rest of the launch is the same as user: PATH lookup, working directory, environment,
// both streams; what the user may not do is a launch error, named.
TEST(RunCommand, RunAsKeepsTheLaunchAndNamesWhatFailed) {
  SKIP_UNLESS_ROOT();
  auto spec = shell("pwd; echo \"$GREETING\"; echo oops >&2; exit 4", 10);
  spec.cwd = "/";
  spec.environment = std::vector<std::string>{"GREETING=hello", "PATH=/usr/bin:/bin"};
  spec.run_as = 65534;
  const auto outcome = run_command(spec);
  EXPECT_EQ(outcome.exit_code, 4);
  EXPECT_EQ(outcome.output, "/\nhello\n");
  EXPECT_EQ(outcome.error_output, "oops\n");
  spec.argv = {"tipc-no-such-program"};
  const auto missing = run_command(spec);
  EXPECT_NE(missing.launch_error.find("tipc-no-such-program"), std::string::npos);
  test::TempDir dir;
  const auto root_only = dir.path() / "root-only";
  std::ofstream(root_only) << "#!/bin/sh\ntrue\n";
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(root_only, fs::perms::owner_all, fs::perm_options::replace);  // nobody may not run it
  spec.argv = {root_only.string()};
  const auto refused = run_command(spec);
  EXPECT_EQ(refused.exit_code, std::nullopt);
  EXPECT_NE(refused.launch_error.find("Permission denied"), std::string::npos) << refused.launch_error;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
