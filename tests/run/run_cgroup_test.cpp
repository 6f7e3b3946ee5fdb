// The run's cgroup, where one can be made here (root in a container, as on CI): below this
// process's own cgroup, removed with the run, and emptied by kill_cgroup whatever its
// processes' environment says.
#include "run/run_cgroup.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/run_processes.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
using namespace std::chrono_literals;

std::string cgroup_test_id() {
  return "cgroup-test-" + this_run_id() + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

TEST(RunCgroup, IsMadeBelowOurOwnCgroupAndRemovedWithTheRun) {
  std::string path;
  {
    const RunCgroup cgroup(cgroup_test_id());
    path = cgroup.path();
    if (path.empty()) GTEST_SKIP() << "no cgroup v2 directory can be made here";
    EXPECT_TRUE(std::filesystem::is_directory(path));
    EXPECT_TRUE(path.ends_with("/tipc-run-" + cgroup_test_id())) << path;
    EXPECT_GE(cgroup.procs_fd(), 0);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RunCgroup, KillCgroupKillsEveryProcessInItAndRemovesIt) {
  const RunCgroup cgroup(cgroup_test_id());
  if (cgroup.path().empty()) GTEST_SKIP() << "no cgroup v2 directory can be made here";
  const pid_t inside = test::start_marked("unrelated", {"sleep", "30"}, cgroup.procs_fd());
  const std::string its_cgroup = "/proc/" + std::to_string(inside) + "/cgroup";
  ASSERT_TRUE(test::within(5s, [&] { return test::slurp(its_cgroup).find(cgroup_test_id()) != std::string::npos; }));
  kill_cgroup(cgroup.path());
  EXPECT_FALSE(test::running(inside));
  EXPECT_FALSE(std::filesystem::exists(cgroup.path()));
  kill(inside, SIGKILL);  // when the test failed
  waitpid(inside, nullptr, 0);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
