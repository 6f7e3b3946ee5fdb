// --executor slurm against a real cluster of two nodes on this machine (scripts/slurm-local.sh
// --nodes 2): the nodes have names, addresses and fake GPUs of their own, and a train of an
// `ips;gpus` element runs as one job step over both nodes with the config's hosts replaced by
// the nodes' addresses.
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/slurm_multi_node.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {

// The lines of tipc-fake-stage --record-node: "NODE NODE_INDEX HOSTNAME" each.
std::vector<std::vector<std::string>> node_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    records.push_back(fields);
  }
  return records;
}

class SlurmMultiNode : public test::SlurmMultiNodeTest {};

TEST_F(SlurmMultiNode, TheClusterHasTwoNodesOfTheirOwnNameAddressAndGpus) {
  const auto listed = nodes();
  ASSERT_EQ(listed.size(), static_cast<std::size_t>(kNodes)) << cluster().command("sinfo --Node");
  std::set<std::string> names, addresses;
  for (const auto& node : listed) {
    names.insert(node.name);
    addresses.insert(node.address);
    EXPECT_EQ(node.address.rfind("127.", 0), 0u) << node.address << ": only loopback addresses";
    EXPECT_EQ(node.gres, "gpu:" + std::to_string(kGpusPerNode)) << node.name;
    // tipc-run's job step resolves the allocated nodes' names with getent.
    EXPECT_EQ(cluster().command("getent ahostsv4 " + node.name + " | awk 'NR == 1 { print $1 }'"), node.address + "\n")
        << node.name;
  }
  EXPECT_EQ(names.size(), listed.size());
  EXPECT_EQ(addresses.size(), listed.size());
}

TEST_F(SlurmMultiNode, ATwoNodeTrainRunsOnBothNodesWithTheirAddressesInItsCommand) {
  test::TempDir repo;
  repo.write(test::kPaddleOcrMarker, "");
  repo.write("eval-ok", "");
  // The config's hosts (made-up names) are replaced inside the job by the allocated nodes'.
  repo.write("test_tipc/configs/fake.txt", test::fake_config("train.py --record-node nodes.txt", "hosta,hostb;0,1"));
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--executor",
                                              "slurm", "--only", "train"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  const auto records = node_records(test::slurp(repo.path() / "nodes.txt"));
  ASSERT_EQ(records.size(), static_cast<std::size_t>(kNodes)) << "one task per node (the launcher starts the ranks)";
  std::set<std::string> ran_on, indexes;
  for (const auto& fields : records) {
    ASSERT_EQ(fields.size(), 3u);
    ran_on.insert(fields[0]);
    indexes.insert(fields[1]);
  }
  std::set<std::string> names;
  std::string addresses;
  for (const auto& node : nodes()) {
    names.insert(node.name);
    addresses += (addresses.empty() ? "" : ",") + node.address;
  }
  EXPECT_EQ(ran_on, names) << "the step's tasks ran on both nodes";
  EXPECT_EQ(indexes, (std::set<std::string>{"0", "1"}));
  const std::string log =
      test::slurp(repo.path() / "test_tipc/output/fake/lite_train_lite_infer/norm_train_gpus_0,1_autocast_null_nodes_2.log");
  EXPECT_NE(log.find("arg --ips=" + addresses + "\n"), std::string::npos) << log;
  EXPECT_EQ(log.find("hosta"), std::string::npos) << log;
}

}  // namespace
}  // namespace tipc::run
