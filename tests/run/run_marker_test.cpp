// A run's processes are found by the id in their environment: exactly that id, with their
// command lines, and only while they live.
#include "run/run_marker.h"

#include <gtest/gtest.h>

#include "support/run_processes.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

TEST(RunMarker, ThisRunsIdIsMadeOnceAndStartsWithItsPid) {
  EXPECT_EQ(&this_run_id(), &this_run_id());
  EXPECT_TRUE(this_run_id().starts_with(std::to_string(getpid()) + "-")) << this_run_id();
}

TEST(RunMarker, AProcessStartedWithTheRunsIdIsFoundWithItsCommandUntilItEnds) {
  const std::string id = this_run_id() + "-marker-test";
  const pid_t marked = test::start_marked(id, {"sleep", "30"});
  const pid_t longer_id = test::start_marked(id + "0", {"sleep", "31"});
  ASSERT_TRUE(test::within(std::chrono::seconds(5), [&] {
    return !processes_of_run(id).empty() && !processes_of_run(id + "0").empty();  // both have exec'd
  }));
  const auto found = processes_of_run(id);
  ASSERT_EQ(found.size(), 1u) << describe(found) << ": another id that starts with this one is another run";
  EXPECT_EQ(found[0].pid, marked);
  EXPECT_EQ(found[0].command, "sleep 30");
  EXPECT_EQ(describe(found), std::to_string(marked) + " (sleep 30)");
  for (const pid_t pid : {marked, longer_id}) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  EXPECT_TRUE(processes_of_run(id).empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
