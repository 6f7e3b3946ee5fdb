// Nothing outlives tipc-run, even when it is killed with SIGKILL: its guardian kills every
// process that carries the run's id, also those that ignore SIGTERM or left the stage's
// process group, and kills nothing when the run ends in order. And a later run refuses an
// output directory where processes of an earlier run still live.
#include "run/guardian.h"

#include <gtest/gtest.h>

#include "run/output_lock.h"
#include "run/run_cgroup.h"
#include "support/fake_repo_run.h"
#include "support/paths.h"
#include "support/run_processes.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
using namespace std::chrono_literals;

// What a run starts: a stage that ignores SIGTERM, with two children that ignore it too and
// one that left the process group (setsid); the children's pids go to `kids`.
std::vector<std::string> stubborn_stage(const std::string& kids) {
  return {test::fake_stage_binary(), "--ignore-term", "--children", kids, "--fork-ignoring-term", "2",
          "--setsid-child",          "--sleep",       "60"};
}

bool none_running(const std::vector<pid_t>& pids) { return std::none_of(pids.begin(), pids.end(), test::running); }

// Kills what a failed test left carrying `run_id`.
void kill_run(const std::string& run_id) {
  for (const auto& process : processes_of_run(run_id)) kill(process.pid, SIGKILL);
}

// Each test has a run id of its own, and what it leaves behind is killed.
class GuardianTest : public ::testing::Test {
 protected:
  void TearDown() override { kill_run(id_); }
  std::string kids() const { return (dir_.path() / "kids").string(); }

  const std::string id_ =
      "guardian-test-" + this_run_id() + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  test::TempDir dir_;
};

TEST_F(GuardianTest, IsAProcessGroupOfItsOwnAndEndsWhenReleased) {
  Guardian guardian(id_, "");
  ASSERT_TRUE(guardian.active());
  const pid_t pid = guardian.pid();
  EXPECT_EQ(getpgid(pid), pid) << "a signal to the run's process group does not reach it";
  guardian.release();
  EXPECT_FALSE(guardian.active());
  EXPECT_FALSE(test::running(pid));
}

// A stand-in for tipc-run in a child process: its guardian, then one stubborn stage.
pid_t start_guarded_run(const std::string& id, const std::string& kids, bool end_in_order) {
  const pid_t run = fork();
  if (run == 0) {
    Guardian guardian(id, "");
    const pid_t stage = test::start_marked(id, stubborn_stage(kids));
    if (end_in_order) {
      while (test::pids_in_file(kids).size() < 3) usleep(10'000);
      guardian.release();
      _exit(stage > 0 ? 0 : 1);
    }
    pause();
    _exit(0);
  }
  return run;
}

TEST_F(GuardianTest, KillsEveryProcessOfARunKilledWithSigkill) {
  const pid_t run = start_guarded_run(id_, kids(), false);
  ASSERT_TRUE(test::within(5s, [&] { return test::pids_in_file(kids()).size() == 3; }));
  ASSERT_EQ(processes_of_run(id_).size(), 4u) << describe(processes_of_run(id_));
  kill(run, SIGKILL);
  waitpid(run, nullptr, 0);
  EXPECT_TRUE(test::within(5s, [&] { return processes_of_run(id_).empty(); })) << describe(processes_of_run(id_));
  // A process in the middle of exiting has lost its environment (so it no longer shows as the
  // run's) before it is a zombie: once in CTest, 15 ms after the kill, a child was still in
  // that state. Each must be gone within the same 5 s.
  EXPECT_TRUE(test::within(5s, [&] { return none_running(test::pids_in_file(kids())); }));
}

TEST_F(GuardianTest, KillsNothingWhenTheRunEndsInOrder) {
  const pid_t run = start_guarded_run(id_, kids(), true);
  int status = 0;
  waitpid(run, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // release() returned after the guardian had exited: whatever lives now, it left alone.
  const auto left = processes_of_run(id_);
  EXPECT_EQ(left.size(), 4u) << describe(left);
  for (const auto& process : left) kill(process.pid, SIGKILL);
  EXPECT_TRUE(test::within(5s, [&] { return processes_of_run(id_).empty(); }));
}

// A process that emptied its environment carries no mark: only the run's cgroup holds it.
TEST_F(GuardianTest, KillsWhatIsLeftInTheRunsCgroup) {
  const std::string started = (dir_.path() / "started").string();
  const pid_t run = fork();
  if (run == 0) {
    RunCgroup cgroup(id_);
    if (cgroup.path().empty()) _exit(3);
    Guardian guardian(id_, cgroup.path());
    const pid_t stage = test::start_marked(
        id_, {"env", "-i", test::fake_stage_binary(), "--ignore-term", "--sleep", "60"}, cgroup.procs_fd());
    std::ofstream(started) << stage << '\n';
    pause();
    _exit(0);
  }
  ASSERT_TRUE(test::within(5s, [&] { return test::pids_in_file(started).size() == 1 || !test::running(run); }));
  if (!test::running(run)) GTEST_SKIP() << "no cgroup v2 directory can be made here";
  const pid_t unmarked = test::pids_in_file(started)[0];
  const std::string its_cgroup = "/proc/" + std::to_string(unmarked) + "/cgroup";
  ASSERT_TRUE(test::within(5s, [&] { return test::slurp(its_cgroup).find("tipc-run-" + id_) != std::string::npos; }));
  ASSERT_TRUE(test::within(5s, [&] {
    return test::slurp("/proc/" + std::to_string(unmarked) + "/cmdline").starts_with(test::fake_stage_binary());
  }));
  EXPECT_TRUE(processes_of_run(id_).empty()) << "env -i took the mark away";
  kill(run, SIGKILL);
  waitpid(run, nullptr, 0);
  EXPECT_TRUE(test::within(5s, [&] { return !test::running(unmarked); }));
  kill(unmarked, SIGKILL);  // when the test failed
}

// The real binary on the fake repository, its train replaced by the stubborn stage.
class GuardedRun : public test::FakeRepoTest {
 protected:
  std::string kids() const { return (repo_.path() / "kids").string(); }
  void TearDown() override { kill_run(run_id()); }
  std::string lock_file() const { return (output() / kLockFileName).string(); }
  // The run id on the lock file's second line, once the run has written it.
  std::string run_id() const {
    std::ifstream in(lock_file());
    std::string line;
    std::getline(in, line);
    std::getline(in, line);
    return line.starts_with(kRunIdPrefix) ? line.substr(std::string_view(kRunIdPrefix).size()) : "";
  }
};

TEST_F(GuardedRun, TipcRunKilledWithSigkillMidStageLeavesNoProcessOfItsStages) {
  repo_.write("test_tipc/configs/fake.txt", test::fake_config("train.py --ignore-term --children " + kids() +
                                                              " --fork-ignoring-term 2 --setsid-child --sleep 60"));
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none", "-j", "1"});
  ASSERT_TRUE(test::within(5s, [&] { return test::pids_in_file(kids()).size() == 3 && !run_id().empty(); }));
  const std::string id = run_id();
  ASSERT_EQ(processes_of_run(id).size(), 4u) << "the train and its 3 children: " << describe(processes_of_run(id));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const auto killed = std::chrono::steady_clock::now();
  EXPECT_TRUE(test::within(5s, [&] { return processes_of_run(id).empty(); })) << describe(processes_of_run(id));
  EXPECT_TRUE(none_running(test::pids_in_file(kids())));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed);
  RecordProperty("ms_from_sigkill_to_last_stage_process_gone", static_cast<int>(ms.count()));
  std::cout << "last stage process gone " << ms.count() << " ms after tipc-run's SIGKILL\n";
}

TEST_F(GuardedRun, ASecondRunWhereAnEarlierRunsProcessLivesIsRefusedNamingIt) {
  const std::string earlier = "guarded-run-test-" + this_run_id();
  repo_.write("test_tipc/output/fake/lite_train_lite_infer/.tipc-lock",
              "pid 1, started 2026-01-01 00:00:00 UTC, command: tipc-run earlier\nrun " + earlier + "\n");
  const pid_t leftover = test::start_marked(earlier, {"sleep", "30"});
  ASSERT_TRUE(test::within(5s, [&] { return !processes_of_run(earlier).empty(); }));
  const auto refused = run();
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("still has processes of an earlier run (pid 1, started 2026-01-01 00:00:00 UTC, "
                             "command: tipc-run earlier): " +
                             std::to_string(leftover) + " (sleep 30)"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("kill -9 " + std::to_string(leftover)), std::string::npos) << refused.err;
  EXPECT_EQ(records(), 0) << "nothing ran";
  kill(leftover, SIGKILL);
  waitpid(leftover, nullptr, 0);
  const auto after = run();
  EXPECT_EQ(after.exit_code, 0) << after.out << after.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
