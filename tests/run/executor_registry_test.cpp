// run/executor_registry: every registered executor is built over a fake local executor and
// runs a stage through it; the names are unique, and an unknown name finds none.
#include "run/executor_registry.h"

#include <set>

#include <gtest/gtest.h>

#include "support/fake_executor.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

// A cluster of two nodes as sinfo would describe it, for the executors that ask one.
ClusterCapacity two_nodes() {
  ClusterCapacity cluster;
  cluster.nodes = 2;
  cluster.max_gpus_per_node = 4;
  cluster.cpus = 16;
  cluster.source = "a test cluster";
  cluster.each_node = {{"n1", 8, 4}, {"n2", 8, 4}};
  return cluster;
}

// Helper commands answer as an idle cluster's would: nothing queued, nothing down.
ExecutorSettings settings() {
  ExecutorSettings settings;
  settings.run = [](const std::vector<std::string>&) { return CommandOutcome{}; };
  return settings;
}

TEST(ExecutorRegistry, EveryRegisteredExecutorIsBuiltAndStartsAStageThroughTheLocalOne) {
  ASSERT_FALSE(executor_types().empty());
  EXPECT_EQ(executor_types().front().name, "local");
  for (const ExecutorType& type : executor_types()) {
    SCOPED_TRACE(type.name);
    EXPECT_FALSE(type.description.empty());
    EXPECT_EQ(type.capacity == nullptr, type.uses_local_gpus) << "a cluster's executor says what it offers";
    const std::optional<ClusterCapacity> cluster =
        type.uses_local_gpus ? std::nullopt : std::optional<ClusterCapacity>(two_nodes());
    EXPECT_GE(type.default_jobs(settings(), cluster), 1);
    FakeExecutor local;
    const std::unique_ptr<Executor> made = type.make(local, settings(), cluster);
    Executor& executor = made ? *made : local;
    Launch launch;
    launch.id = "stage";
    launch.argv = {"/bin/true"};
    launch.cwd = "/";
    launch.log_path = "/dev/null";
    const auto started = executor.start(launch);
    ASSERT_TRUE(started) << started.error().str();
    ASSERT_EQ(local.records.size(), 1u) << "every executor's processes start through the local one";
    EXPECT_EQ(executor.running(), 1u);
  }
}

TEST(ExecutorRegistry, NamesAreUniqueAndFoundAndAnUnknownOneIsNot) {
  std::set<std::string> names;
  for (const ExecutorType& type : executor_types()) {
    EXPECT_TRUE(names.insert(type.name).second) << type.name;
    EXPECT_EQ(find_executor_type(type.name), &type);
  }
  EXPECT_EQ(find_executor_type("kubernetes"), nullptr);
}

TEST(ExecutorRegistry, AClustersDefaultJobsAreItsCpusPerStageAndTheLocalOnesTheCores) {
  ExecutorSettings four_cpus = settings();
  four_cpus.slurm.cpus_per_task = 4;
  EXPECT_EQ(find_executor_type("slurm")->default_jobs(four_cpus, two_nodes()), 4);  // 16 CPUs / 4
  EXPECT_GE(find_executor_type("local")->default_jobs(settings(), std::nullopt), 1);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
