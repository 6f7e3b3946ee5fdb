#pragma once
// A real Slurm cluster of two nodes on this machine, each a slurmd of its own with its own
// name, loopback address and two fake GPUs (scripts/slurm-local.sh --nodes, docs/slurm.md),
// for the SlurmMultiNode* test suites: derive the suite's fixture from SlurmMultiNodeTest,
// which starts one cluster per suite and stops it after the suite's last test.
//
// Unlike the one-node fixture, only missing Slurm binaries skip the tests ("SLURM TESTS NOT
// RUN: ..."): where they are installed, a cluster that does not start is a failure.
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/slurm_cluster.h"

namespace tipc::test {

// One node as sinfo lists it.
struct SlurmNode {
  std::string name, address, gres;
};

class SlurmMultiNodeTest : public ::testing::Test {
 public:
  static constexpr int kNodes = 2;
  static constexpr int kGpusPerNode = 2;
  static constexpr int kCpusPerNode = 2;  // room for the demo's two ranks per node

 protected:
  static void SetUpTestSuite() {
    cluster_ = std::make_unique<LocalSlurm>();
    started_ = cluster_->start(kGpusPerNode, kNodes, kCpusPerNode);
  }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    if (started_) return;
    if (cluster_->binaries_missing()) GTEST_SKIP() << "SLURM TESTS NOT RUN: " << cluster_->why();
    FAIL() << "the Slurm binaries are installed, but the " << kNodes
           << "-node cluster did not start: " << cluster_->why();
  }

  static LocalSlurm& cluster() { return *cluster_; }
  // The cluster's nodes, from sinfo.
  static std::vector<SlurmNode> nodes() {
    std::vector<SlurmNode> out;
    std::istringstream lines(cluster_->command("sinfo --noheader --Node --format='%N %o %G'"));
    for (std::string line; std::getline(lines, line);) {
      std::istringstream fields(line);
      SlurmNode node;
      if (fields >> node.name >> node.address >> node.gres) out.push_back(node);
    }
    return out;
  }

 private:
  inline static std::unique_ptr<LocalSlurm> cluster_;
  inline static bool started_ = false;
};

}  // namespace tipc::test
