// tipc-run's placement of stages on a cluster's nodes: what fits where, best fit first,
// whole nodes for a benchmark, nodes that are down, and stages that never fit.
#include "run/cluster_placement.h"

#include <gtest/gtest.h>

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

std::vector<std::string> names(const Placement& placement) {
  std::vector<std::string> out;
  for (const auto& share : placement) out.push_back(share.node);
  return out;
}

ClusterPlacement two_gpu_nodes_and_a_cpu_node() {
  return ClusterPlacement({{"g1", 4, 2}, {"g2", 4, 2}, {"c1", 8, 0}}, 1);
}

TEST(ClusterPlacement, ACpuStageKeepsOffTheGpuNodesWhileItsNodeHasRoom) {
  auto cluster = two_gpu_nodes_and_a_cpu_node();
  for (int i = 0; i < 8; ++i) {
    const auto placed = cluster.find({1, 0, 1, false});
    ASSERT_TRUE(placed);
    EXPECT_EQ(names(*placed), (std::vector<std::string>{"c1"})) << i;
    cluster.take(*placed);
  }
  const auto ninth = cluster.find({1, 0, 1, false});
  ASSERT_TRUE(ninth) << "the GPU nodes' CPUs take it once the CPU node is full";
  EXPECT_EQ(names(*ninth), (std::vector<std::string>{"g1"}));
}

TEST(ClusterPlacement, GpusAreCountedPerNodeAndFreedWhenGivenBack) {
  auto cluster = two_gpu_nodes_and_a_cpu_node();
  const auto one = cluster.find({1, 1, 1, false});
  ASSERT_TRUE(one);
  cluster.take(*one);
  const auto two = cluster.find({1, 2, 1, false});
  ASSERT_TRUE(two);
  EXPECT_NE(names(*two), names(*one)) << "both GPUs of one node: the node without a stage";
  cluster.take(*two);
  const auto another_one = cluster.find({1, 1, 1, false});
  ASSERT_TRUE(another_one);
  EXPECT_EQ(names(*another_one), names(*one)) << "the best fit: the node with one GPU left";
  cluster.take(*another_one);
  EXPECT_FALSE(cluster.find({1, 1, 1, false})) << "every GPU is taken";
  EXPECT_TRUE(cluster.find({1, 0, 1, false})) << "CPUs are still free";
  cluster.give_back(*two);
  EXPECT_TRUE(cluster.find({1, 2, 1, false}));
}

TEST(ClusterPlacement, RanksTakeTheirTasksCpusOnEachOfTheirNodes) {
  ClusterPlacement cluster({{"n1", 4, 0}, {"n2", 4, 0}}, 2);
  const auto both = cluster.find({2, 0, 2, false});
  ASSERT_TRUE(both);
  EXPECT_EQ(names(*both), (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ((*both)[0].cpus, 4);
  cluster.take(*both);
  EXPECT_FALSE(cluster.find({1, 0, 1, false})) << "2 ranks x 2 CPUs fill each node";
  EXPECT_FALSE(cluster.could_ever_fit({3, 0, 1, false}));
  EXPECT_FALSE(cluster.could_ever_fit({1, 0, 3, false})) << "3 tasks x 2 CPUs: no node has 6";
  EXPECT_TRUE(cluster.could_ever_fit({2, 0, 2, false}));
}

TEST(ClusterPlacement, ABenchmarkTakesAWholeIdleNode) {
  auto cluster = two_gpu_nodes_and_a_cpu_node();
  const auto one_gpu = cluster.find({1, 1, 1, false});
  ASSERT_TRUE(one_gpu);
  cluster.take(*one_gpu);
  const auto bench = cluster.find({1, 1, 1, true});
  ASSERT_TRUE(bench);
  EXPECT_NE(names(*bench), names(*one_gpu)) << "not beside another stage";
  EXPECT_EQ((*bench)[0].cpus, 4);
  EXPECT_EQ((*bench)[0].gpus, 2) << "the whole node";
  cluster.take(*bench);
  EXPECT_FALSE(cluster.find({1, 2, 1, false})) << "the benchmark's node holds both its GPUs";
  const auto beside = cluster.find({1, 1, 1, false});
  ASSERT_TRUE(beside);
  EXPECT_EQ(names(*beside), names(*one_gpu));
  const auto idle = cluster.find({1, 0, 1, true});
  ASSERT_TRUE(idle);
  EXPECT_EQ(names(*idle), (std::vector<std::string>{"c1"})) << "the one idle node left";
}

TEST(ClusterPlacement, ANodeSlurmReportsDownIsNeverChosen) {
  auto cluster = two_gpu_nodes_and_a_cpu_node();
  cluster.set_unavailable({"g1", "c1"});
  for (int i = 0; i < 2; ++i) {
    const auto placed = cluster.find({1, 1, 1, false});
    ASSERT_TRUE(placed);
    EXPECT_EQ(names(*placed), (std::vector<std::string>{"g2"}));
    cluster.take(*placed);
  }
  EXPECT_FALSE(cluster.find({1, 1, 1, false}));
  EXPECT_FALSE(cluster.could_ever_fit({2, 0, 1, false})) << "one node is left";
  cluster.set_unavailable({});
  EXPECT_TRUE(cluster.find({1, 1, 1, false}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
