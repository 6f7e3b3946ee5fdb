// plan/mode_split: which configs of a directory take which MODE, on the demo's configs (two
// train/infer, ONNX, serving, C++) and the chains this tree ships.
#include "plan/mode_split.h"

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/shipped_chains.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

std::vector<ConfigFile> demo_configs() {
  auto files = config_files(test::source_dir() + "/test_tipc/configs", test::shipped_chains());
  EXPECT_TRUE(files) << files.error().str();
  return files ? std::move(*files) : std::vector<ConfigFile>{};
}

// The file names of `indices` into `files`.
std::vector<std::string> names(const std::vector<ConfigFile>& files, const std::vector<std::size_t>& indices) {
  std::vector<std::string> out;
  for (std::size_t i : indices) out.push_back(fs::path(files[i].path).filename().string());
  return out;
}

TEST(ModeSplit, EachConfigGoesToTheModesItsChainTakesAndTheOthersAreNamedWithTheirChain) {
  const auto files = demo_configs();
  const auto split = split_by_mode(files, {"paddle2onnx_infer", "lite_train_lite_infer"}, test::shipped_chains());
  ASSERT_TRUE(split) << split.error().str();
  ASSERT_EQ(split->by_mode.size(), 2u);
  EXPECT_EQ(split->by_mode[0].first, "paddle2onnx_infer");
  EXPECT_EQ(names(files, split->by_mode[0].second), (std::vector<std::string>{"alexnet_paddle2onnx.txt"}));
  EXPECT_EQ(split->by_mode[1].first, "lite_train_lite_infer");
  EXPECT_EQ(names(files, split->by_mode[1].second).size(), 2u);
  std::vector<std::string> chains_of_none;
  for (const auto& config : split->taking_none) chains_of_none.push_back(config.chain);
  std::sort(chains_of_none.begin(), chains_of_none.end());
  EXPECT_EQ(chains_of_none, (std::vector<std::string>{"inference_cpp", "serving_infer_python"}));
}

TEST(ModeSplit, AModeNoConfigTakesIsAnErrorNamingTheChainsThatHaveIt) {
  const auto files = demo_configs();
  const auto split = split_by_mode(files, {"lite_train_lite_infer", "pipeline_infer"}, test::shipped_chains());
  ASSERT_FALSE(split);
  const std::string error = split.error().str();
  EXPECT_NE(error.find("MODE 'pipeline_infer': no config of this directory takes it (the chains that have it: "
                       "pipeline_infer_python; "),
            std::string::npos)
      << error;
  const auto unknown = split_by_mode(files, {"no_such_mode"}, test::shipped_chains());
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().str().find("no chain of chains.yaml has it"), std::string::npos) << unknown.error().str();
}

TEST(ModeSplit, AConfigThatCannotBeReadIsPlannedOnceInTheFirstMode) {
  std::vector<ConfigFile> files = demo_configs();
  files.push_back({"broken.txt", fail(Error::plain("not UTF-8"))});
  const auto split = split_by_mode(files, {"paddle2onnx_infer", "serving_infer"}, test::shipped_chains());
  ASSERT_TRUE(split) << split.error().str();
  EXPECT_EQ(names(files, split->by_mode[0].second).back(), "broken.txt");
  EXPECT_EQ(names(files, split->by_mode[1].second), (std::vector<std::string>{"alexnet_serving.txt"}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
