// One run per output directory: a second lock of a held directory names its holder and
// fails at once without waiting, or waits for it; a holder killed with SIGKILL releases it.
#include "run/output_lock.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "run/run_marker.h"
#include "support/run_processes.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

LockOptions no_wait() { return {false, nullptr}; }

TEST(OutputLock, TheHolderWritesWhoItIsIntoTheLockFile) {
  test::TempDir dir;
  const std::string out = (dir.path() / "out/m/lite").string();
  const auto locks = lock_output_dirs({out}, no_wait());
  ASSERT_TRUE(locks) << locks.error().str();
  const std::string holder = lock_holder(out);
  EXPECT_TRUE(holder.starts_with("pid " + std::to_string(getpid()) + ", started ")) << holder;
  EXPECT_NE(holder.find("UTC, command: "), std::string::npos) << holder;
}

TEST(OutputLock, TheHolderWritesItsRunIdOnTheSecondLine) {
  test::TempDir dir;
  const auto locks = lock_output_dirs({dir.path().string()}, no_wait());
  ASSERT_TRUE(locks) << locks.error().str();
  std::ifstream in(dir.path() / kLockFileName);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  EXPECT_EQ(line, kRunIdPrefix + this_run_id());
}

// What the guardian of a run killed with SIGKILL could not kill (or a guardian killed too):
// the earlier run's processes would write into the directory while this run does.
TEST(OutputLock, ADirectoryWhereAProcessOfTheEarlierRunLivesIsRefusedNamingIt) {
  test::TempDir dir;
  const std::string out = dir.path().string(), earlier = "lock-test-" + this_run_id();
  const std::string holder = "pid 1, started 2026-01-01 00:00:00 UTC, command: tipc-run earlier";
  dir.write(kLockFileName, holder + "\n" + kRunIdPrefix + earlier + "\n");
  const pid_t leftover = test::start_marked(earlier, {"sleep", "30"});
  ASSERT_TRUE(test::within(std::chrono::seconds(5), [&] { return !processes_of_run(earlier).empty(); }));
  for (const bool wait : {false, true}) {
    const auto refused = lock_output_dirs({out}, {wait, nullptr});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().exit_code, 2);
    const std::string pid = std::to_string(leftover);
    EXPECT_EQ(refused.error().str(), out + " still has processes of an earlier run (" + holder + "): " + pid +
                                         " (sleep 30); they would write into it while this run does. Stop them (kill "
                                         "-9 " +
                                         pid + ") and start again");
    EXPECT_EQ(lock_holder(out), holder) << "the earlier run's record is kept";
  }
  kill(leftover, SIGKILL);
  waitpid(leftover, nullptr, 0);
  const auto locks = lock_output_dirs({out}, no_wait());
  EXPECT_TRUE(locks) << locks.error().str();
}

// flock(2) locks belong to an open file: a second open in this process is a second run.
TEST(OutputLock, AHeldDirectoryIsRefusedAtOnceNamingItsHolder) {
  test::TempDir dir;
  const std::string out = dir.path().string();
  const auto held = lock_output_dirs({out}, no_wait());
  ASSERT_TRUE(held);
  const auto second = lock_output_dirs({out}, no_wait());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().exit_code, 2);
  EXPECT_NE(second.error().str().find(out + " is in use by another tipc-run (pid " + std::to_string(getpid())),
            std::string::npos)
      << second.error().str();
}

TEST(OutputLock, ASecondRunWaitsForTheHolderAndThenHoldsTheDirectory) {
  test::TempDir dir;
  const std::string out = dir.path().string();
  auto held = std::make_optional(lock_output_dirs({out}, no_wait()));
  ASSERT_TRUE(*held);
  std::atomic<bool> told = false, returned = false;
  std::optional<Result<OutputLocks>> second;
  std::thread waiter([&] {
    second = lock_output_dirs({out}, {true, [&](const std::string& line) {
                                        EXPECT_NE(line.find("waiting for it to finish"), std::string::npos) << line;
                                        told = true;
                                      }});
    returned = true;
  });
  while (!told) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(returned) << "it waits while the holder holds the directory";
  held.reset();  // the holder ends
  waiter.join();
  ASSERT_TRUE(second && *second) << "it holds the directory once the holder ended";
  EXPECT_FALSE(lock_output_dirs({out}, no_wait())) << "and now it is the holder";
}

TEST(OutputLock, AHolderKilledWithSigkillReleasesTheDirectory) {
  test::TempDir dir;
  const std::string out = dir.path().string();
  const pid_t child = fork();
  if (child == 0) {
    const auto locks = lock_output_dirs({out}, no_wait());
    if (!locks) _exit(1);
    pause();
    _exit(0);
  }
  ASSERT_GT(child, 0);
  const std::string holder = "pid " + std::to_string(child) + ",";
  for (int i = 0; i < 2000 && !lock_holder(out).starts_with(holder); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(lock_holder(out).starts_with(holder)) << lock_holder(out);
  EXPECT_FALSE(lock_output_dirs({out}, no_wait())) << "held by the child";
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  const auto locks = lock_output_dirs({out}, no_wait());
  EXPECT_TRUE(locks) << locks.error().str();
}

TEST(OutputLock, TheSameDirectoryNamedTwiceIsLockedOnce) {
  test::TempDir dir;
  const std::string a = (dir.path() / "a").string(), b = (dir.path() / "b").string();
  const auto locks = lock_output_dirs({b, a, a + "/.", b + "/x/.."}, no_wait());
  EXPECT_TRUE(locks) << locks.error().str();
}

TEST(OutputLock, ALockFileThatCannotBeMadeIsAnErrorNamingIt) {
  test::TempDir dir;
  dir.write("file", "not a directory");
  const auto locks = lock_output_dirs({(dir.path() / "file").string()}, no_wait());
  ASSERT_FALSE(locks);
  EXPECT_NE(locks.error().str().find("file/.tipc-lock"), std::string::npos) << locks.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
