// A cross-check finding that claims the runner did something is held against what the trace
// recorded (issue 38, item 2): no "dropped the parameter" for a script line that only holds
// `=` (`--epochs=1`), no "cut at its second colon" where the runner used what follows that
// colon too. The findings the recording bears out stay.
#include "plan/cross_check.h"

#include <sstream>

#include <gtest/gtest.h>

#include "config/config_text.h"
#include "support/shipped_chains.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

config::TrainInferConfig config_from(const std::string& text) {
  config::ConfigText config;
  config.path = "test_tipc/configs/m/train_infer_python.txt";
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    config.lines.push_back({line, "", ++config.physical_line_count});
  }
  return config::split_config(config, {config::ValueSplit::kFirstColon, false, false});
}

// One traced stage per command, its words its argv and the runner's evaluated string.
Plan traced_plan(const std::vector<std::pair<StageKind, std::string>>& commands) {
  Plan plan;
  plan.mode = "lite_train_lite_infer";
  for (const auto& [kind, command] : commands) {
    Stage stage;
    stage.kind = kind;
    std::istringstream words(command);
    for (std::string word; words >> word;) stage.argv.push_back(word);
    stage.results_log.shell_text = command;
    plan.stages.push_back(std::move(stage));
  }
  return plan;
}

// The cross-check of a train/inference config, with that chain's script keys.
std::vector<Diagnostic> checked(const config::TrainInferConfig& config, const Plan& plan) {
  return cross_check(config, nullptr, test::python_script_keys(), plan);
}

std::string listed(const std::vector<Diagnostic>& found) {
  std::string out;
  for (const auto& d : found) out += d.str() + "\n";
  return out;
}

TEST(CrossCheckClaims, ATrainerLineWithEqualsSignsIsNoModeOverride) {
  const auto config = config_from(
      "===train_params===\nmodel_name:m\n--epochs:lite_train_lite_infer=1|whole_train_whole_infer=5\n"
      "trainer:norm_train\nnorm_train:tools/train.py --epochs=1 --batch-size=1 --save_dir=./out\n");
  const auto plan =
      traced_plan({{StageKind::kTrain, "python tools/train.py --epochs=1 --batch-size=1 --save_dir=./out --epochs=1"}});
  EXPECT_TRUE(checked(config, plan).empty()) << listed(checked(config, plan));
}

TEST(CrossCheckClaims, AnOverrideTheRunnerPassedAsTwoWordsWasNotDropped) {
  const auto config = config_from("===train_params===\nmodel_name:m\n--epochs:lite_train_lite_infer=1\n");
  const auto passed = traced_plan({{StageKind::kTrain, "python train.py --epochs 1"}});
  EXPECT_TRUE(checked(config, passed).empty()) << listed(checked(config, passed));
  const auto dropped = traced_plan({{StageKind::kTrain, "python train.py"}});
  const auto found =
      checked(config_from("===train_params===\nmodel_name:m\n--epochs:whole_train_whole_infer=1\n"), dropped);
  ASSERT_EQ(found.size(), 1u) << listed(found);
  EXPECT_EQ(found[0].line, 3);
  EXPECT_NE(found[0].message.find("is not listed: the runner dropped the parameter"), std::string::npos);
}

TEST(CrossCheckClaims, AValueTheRunnerReadPastItsSecondColonWasNotCut) {
  const auto config = config_from("===train_params===\nmodel_name:m\nmodel_type:seg:unet\n");
  const auto read_on = traced_plan({{StageKind::kTrain, "python train.py --type seg --arch unet"}});
  EXPECT_TRUE(checked(config, read_on).empty()) << listed(checked(config, read_on));
  const auto cut = traced_plan({{StageKind::kTrain, "python train.py --type seg --arch unet_v2"}});
  const auto found = checked(config, cut);
  ASSERT_EQ(found.size(), 1u) << listed(found);
  EXPECT_NE(found[0].message.find("it used 'seg', the line says 'seg:unet'"), std::string::npos) << listed(found);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
