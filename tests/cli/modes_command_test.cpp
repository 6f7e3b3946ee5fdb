// `tipc-run modes CONFIG`: the modes of the config's chain, read from chains.yaml, which the
// bash completion offers after a config.
#include "cli/modes_command.h"

#include <sstream>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

using Modes = std::vector<std::string>;

const Modes kTrainInferModes{"lite_train_lite_infer", "lite_train_whole_infer", "whole_train_whole_infer",
                             "whole_infer",           "klquant_whole_infer",    "benchmark_train"};

std::string lines(const Modes& modes) {
  std::string text;
  for (const auto& mode : modes) text += mode + "\n";
  return text;
}

TEST(ModesCommand, ATrainConfigHasItsChainsModesThenTheBenchmarkChainsOwn) {
  EXPECT_EQ(dialect::chain_modes(test::shipped_chains(), "train_params", "alexnet.txt"), kTrainInferModes);
}

TEST(ModesCommand, EachChainOfTheDemoHasItsOwnModes) {
  const auto chains = test::shipped_chains();
  EXPECT_EQ(dialect::chain_modes(chains, "paddle2onnx_params", "alexnet_paddle2onnx.txt"), Modes{"paddle2onnx_infer"});
  EXPECT_EQ(dialect::chain_modes(chains, "serving_params", "alexnet_serving.txt"), Modes{"serving_infer"});
  EXPECT_EQ(
      dialect::chain_modes(chains, "cpp_infer_params", "model_linux_gpu_normal_normal_infer_cpp_linux_gpu_cpu.txt"),
      Modes{"cpp_infer"});
}

TEST(ModesCommand, AModeIsListedOnlyWhereItsChainIsTheOneChosenForIt) {
  // An NPU train config: its chain's four modes; whole_infer's chain for it is still the NPU one,
  // and benchmark_train goes to the benchmark chain, which matches every train_params config.
  EXPECT_EQ(dialect::chain_modes(test::shipped_chains(), "train_params", "alexnet_train_npu_normal.txt"),
            (Modes{"lite_train_lite_infer", "lite_train_whole_infer", "whole_train_whole_infer", "whole_infer",
                   "benchmark_train"}));
}

TEST(ModesCommand, NoChainMatchingMeansNoModes) {
  EXPECT_TRUE(dialect::chain_modes(test::shipped_chains(), "no_such_params", "x.txt").empty());
  EXPECT_TRUE(chain_modes(dialect::Chains{}, "train_params", "alexnet.txt").empty());
}

TEST(ModesCommand, PrintsTheDemoConfigsModesOneALine) {
  const auto train = test::run_tipc(test::source_dir(), {"modes", "test_tipc/configs/alexnet.txt"});
  EXPECT_EQ(train.exit_code, 0) << train.err;
  EXPECT_EQ(train.out, lines(kTrainInferModes));
  const auto onnx = test::run_tipc(test::source_dir(), {"modes", "test_tipc/configs/alexnet_paddle2onnx.txt"});
  EXPECT_EQ(onnx.exit_code, 0) << onnx.err;
  EXPECT_EQ(onnx.out, "paddle2onnx_infer\n");
  const auto serving = test::run_tipc(test::source_dir(), {"modes", "test_tipc/configs/alexnet_serving.txt"});
  EXPECT_EQ(serving.out, "serving_infer\n") << serving.err;
}

// Every chain's configs count: the demo's C++, ONNX and serving configs add their modes
// (before chains.yaml decided what a config is, a directory gave the train configs' only).
TEST(ModesCommand, ADirectoryGivesTheModesOfItsConfigsOfEveryChain) {
  std::ostringstream out, err;
  EXPECT_EQ(modes_main({test::source_dir() + "/test_tipc/configs"}, out, err), kExitPassed) << err.str();
  EXPECT_EQ(out.str(), lines(kTrainInferModes) + "cpp_infer\npaddle2onnx_infer\nserving_infer\n");
}

TEST(ModesCommand, AFileThatIsNoConfigIsAUsageErrorNamingIt) {
  test::TempDir dir;
  const std::string notes = dir.write("notes.txt", "shopping list\n");
  std::ostringstream out, err;
  EXPECT_EQ(modes_main({notes}, out, err), kExitUsage);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("tipc-run modes: error: " + notes + ":1"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("no chain of "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("header 'shopping list'"), std::string::npos) << err.str();

  std::ostringstream missing_out, missing_err;
  EXPECT_EQ(modes_main({dir.path().string() + "/missing.txt"}, missing_out, missing_err), kExitUsage);
  EXPECT_NE(missing_err.str().find("missing.txt"), std::string::npos) << missing_err.str();
}

TEST(ModesCommand, ReadsTheChainsBesideTheDialectDirectoryGiven) {
  test::TempDir dir;
  dir.write("dialects/placeholder.yaml", "");
  dir.write("chains.yaml",
            "chains:\n  - name: mine\n    match: {header: [train_params]}\n    runners: [run.sh]\n"
            "    modes: [my_mode]\n    status_logs: [results.log]\n");
  std::ostringstream out, err;
  EXPECT_EQ(modes_main({test::source_dir() + "/test_tipc/configs/alexnet.txt", "--dialect-dir",
                        dir.path().string() + "/dialects"},
                       out, err),
            kExitPassed)
      << err.str();
  EXPECT_EQ(out.str(), "my_mode\n");
}

TEST(ModesCommand, IsLeftOutOfTheMainHelpButHasItsOwn) {
  const auto main_help = test::run_tipc(test::source_dir(), {"--help"});
  EXPECT_EQ(main_help.out.find("  modes "), std::string::npos) << main_help.out;
  const auto own = test::run_tipc(test::source_dir(), {"modes", "--help"});
  EXPECT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("tipc-run modes"), std::string::npos) << own.out;
  EXPECT_NE(own.out.find("--dialect-dir"), std::string::npos) << own.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
