// The demo's multi-node element (test_tipc/configs/alexnet_2nodes.txt: gpu element
// node1,node2;0,1 with --use-gpu False) on a real two-node Slurm cluster: the train runs as
// one job step of 2 nodes x 2 gloo ranks, the ranks meet at the address tipc-run put in
// place of the config's first host, eval and export read the model it saved, and every
// report names the nodes of every stage.
#include <filesystem>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/demo_repo.h"
#include "support/run_binary.h"
#include "support/slurm_multi_node.h"

namespace tipc::demo {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

class SlurmMultiNodeDemo : public test::SlurmMultiNodeTest {
 protected:
  void SetUp() override {
    test::SlurmMultiNodeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    test::require_demo_python("the multi-node demo");
    if (IsSkipped() || HasFatalFailure()) return;
    test::copy_demo_parts(repo_, {"test_tipc/configs/alexnet_2nodes.txt"});
  }
  fs::path out() const { return repo_.path() / "test_tipc/output/alexnet_2nodes/lite_train_lite_infer"; }

  test::TempDir repo_;
};

// node -> the ranks that said they joined there, and the addresses they joined at.
struct Meeting {
  std::map<std::string, std::set<int>> ranks_on;
  std::set<std::string> addresses;
};

Meeting meeting_in(const std::string& log) {
  static const std::regex kJoined(R"(\[train\] rank (\d+)/4 on (\S+) joined at (\S+):\d+)");
  Meeting meeting;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), kJoined); it != std::sregex_iterator(); ++it) {
    meeting.ranks_on[(*it)[2].str()].insert(std::stoi((*it)[1].str()));
    meeting.addresses.insert((*it)[3].str());
  }
  return meeting;
}

TEST_F(SlurmMultiNodeDemo, TrainsTwoNodesTimesTwoRanksAsOneStepAndEvalReadsItsModel) {
  const auto r = test::run_tipc(
      repo_.path(), {"test_tipc/configs/alexnet_2nodes.txt", "lite_train_lite_infer", "--executor", "slurm"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto nodes = this->nodes();
  ASSERT_EQ(nodes.size(), 2u);

  const std::string train_log = test::slurp(out() / "norm_train_gpus_0,1_autocast_null_nodes_2.log");
  const Meeting meeting = meeting_in(train_log);
  EXPECT_EQ(meeting.ranks_on, (std::map<std::string, std::set<int>>{{nodes[0].name, {0, 1}}, {nodes[1].name, {2, 3}}}))
      << train_log;
  EXPECT_EQ(meeting.addresses, std::set<std::string>{nodes[0].address}) << "MASTER_ADDR: the first node's address";
  for (const char* line : {"[train] rank 3/4 epoch: 12/12, iter: ", "[train] rank 0 saved "}) {
    EXPECT_NE(train_log.find(line), std::string::npos) << line << " in " << train_log;
  }
  const std::string eval_log = test::slurp(out() / "norm_train_gpus_0,1_autocast_null_nodes_2_eval.log");
  EXPECT_NE(eval_log.find("[eval] images: "), std::string::npos) << "eval loaded the trained model: " << eval_log;

  const auto report = nlohmann::json::parse(test::slurp(out() / "report.json"));
  EXPECT_EQ(report["verdict"], "PASS");
  std::string both = cluster().command("scontrol show hostlist " + nodes[0].name + "," + nodes[1].name);
  both = both.substr(0, both.find('\n'));  // tipcP-n[1-2]
  for (const auto& stage : report["plans"][0]["stages"]) {
    ASSERT_TRUE(stage["nodes"].is_string()) << stage["id"] << " names no nodes";
    const std::string ran_on = stage["nodes"];
    if (stage["kind"] == "train")
      EXPECT_EQ(ran_on, both);
    else
      EXPECT_TRUE(ran_on == nodes[0].name || ran_on == nodes[1].name) << stage["id"] << ": " << ran_on;
    if (stage["kind"] == "eval") {
      EXPECT_NE(stage["argv"].dump().find("=./test_tipc/output/alexnet_2nodes/lite_train_lite_infer/"
                                          "norm_train_gpus_0,1_autocast_null_nodes_2/latest.pt\""),
                std::string::npos)
          << "eval reads the model the 2-node train saved: " << stage["argv"];
    }
  }
  EXPECT_NE(r.out.find(" on " + both + "]"), std::string::npos) << r.out;
  EXPECT_NE(test::slurp(out() / "junit.xml").find(" on " + both + "\n"), std::string::npos);
  EXPECT_NE(test::slurp(out() / "report.html").find(" on " + both + "</span>"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::demo
