// The choice of a native chain planner by the config's chain (chains.yaml's names).
#include "plan/chain_planner.h"

#include <gtest/gtest.h>

#include "support/chain_config.h"
#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

// The table and the planners agree: a chain is `planner: native` in configs/chains.yaml
// exactly when tipc-run has its planner.
TEST(ChainPlanner, TheChainsTheTableMarksNativeAreTheOnesWithAPlanner) {
  std::vector<std::string> marked;
  for (const auto& chain : test::shipped_chains().chains) {
    if (chain.planner == dialect::ChainPlanner::kNative) marked.push_back(chain.name);
    EXPECT_EQ(has_chain_planner(chain.name), chain.planner == dialect::ChainPlanner::kNative) << chain.name;
  }
  EXPECT_EQ(marked, (std::vector<std::string>{"paddle2onnx", "serving_infer_python"}));
}

TEST(ChainPlanner, PlansTheDemoConfigsByTheirChainAndRefusesAChainWithoutAPlanner) {
  test::PlannedChain onnx;
  test::plan_chain_text(onnx, test::slurp(test::source_dir() + "/test_tipc/configs/alexnet_paddle2onnx.txt"),
                        "paddle2onnx", "paddle2onnx_infer");
  ASSERT_TRUE(onnx.plan) << onnx.plan.error().str();
  EXPECT_EQ(onnx.plan->config_path, onnx.config);
  EXPECT_EQ(onnx.plan->dialect, "paddle2onnx");
  test::PlannedChain serving;
  test::plan_chain_text(serving, test::slurp(test::source_dir() + "/test_tipc/configs/alexnet_serving.txt"),
                        "serving_infer_python", "serving_infer");
  ASSERT_TRUE(serving.plan) << serving.plan.error().str();
  EXPECT_EQ(serving.plan->stages.size(), 3u);
  test::PlannedChain cpp;
  test::plan_chain_text(cpp, test::slurp(test::source_dir() + "/test_tipc/configs/alexnet_serving.txt"),
                        "serving_infer_cpp", "serving_infer");
  ASSERT_FALSE(cpp.plan);
  EXPECT_NE(cpp.plan.error().str().find("chain serving_infer_cpp ("), std::string::npos) << cpp.plan.error().str();
  EXPECT_NE(cpp.plan.error().str().find(") has no native planner in tipc-run"), std::string::npos);
}

// From the command line: the demo's configs have no runner next to them, so their chain's
// planner plans them; a wrong key is the config's error, exit 2.
TEST(ChainPlanner, TheCommandLinePlansAConfigWithoutItsRunnerNatively) {
  const std::string root = test::source_dir();
  const auto dry = test::run_tipc(root, {"test_tipc/configs/alexnet_serving.txt", "serving_infer", "--dry-run"});
  EXPECT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_NE(dry.out.find("[service] service/python_server_cpu"), std::string::npos) << dry.out;
  test::TempDir repo;
  repo.write("test_tipc/tipc-run.yaml", "dialect: paddleocr\n");
  repo.write("test_tipc/configs/bad.txt", test::replaced(test::slurp(root + "/test_tipc/configs/alexnet_serving.txt"),
                                                         "serving_dir:", "service_dir:"));
  const auto bad = test::run_tipc(repo.path(), {"test_tipc/configs/bad.txt", "serving_infer", "--dry-run"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("test_tipc/configs/bad.txt:10: the runner reads logical line 10 as 'serving_dir', found key "
                         "'service_dir'"),
            std::string::npos)
      << bad.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
