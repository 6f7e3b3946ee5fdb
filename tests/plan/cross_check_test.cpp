// The cross-check on the corpus configs the README (§6) flags: the misaligned PaddleOCR
// config (D4 in docs/reference-runner.md) and a truncated PaddleClas one, with file:line; plus D3, D5 and D13 in docs/reference-runner.md on
// small configs, and --strict.
#include "plan/cross_check.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "compat/reference_planning_rules.h"
#include "config/config_text.h"
#include "plan/traced_planner.h"
#include "support/golden_trace.h"
#include "support/paths.h"
#include "support/shipped_chains.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

fs::path corpus_dir() { return fs::path(test::shared_dir()) / "tipc-corpus"; }

config::TrainInferConfig read(const fs::path& path) {
  return config::split_config(config::read_config_text(path.string(), {}).value(),
                              {config::ValueSplit::kFirstColon, false, false});
}

std::vector<Diagnostic> check_corpus_run(const std::string& repo, const std::string& id, const std::string& config,
                                         const std::string& dialect_name) {
  const auto cfg = read(corpus_dir() / "configs" / repo / config);
  const auto trace = test::golden_trace((corpus_dir() / "golden" / repo / id).string(), "/repo-root");
  TracedPlanOptions options;
  options.rules = &tipc::compat::reference_planning_rules();
  options.repo_root = "/repo-root";
  const auto plan = plan_from_trace(trace, cfg, options).value();
  const auto dialect = dialect::load_dialect(test::dialect_dir(), dialect_name).value();
  return cross_check(cfg, &dialect, test::python_script_keys(), plan);
}

bool has(const std::vector<Diagnostic>& found, int line, const std::string& key, const std::string& text) {
  return std::any_of(found.begin(), found.end(), [&](const Diagnostic& d) {
    return d.line == line && d.key == key && d.message.find(text) != std::string::npos;
  });
}

std::string all(const std::vector<Diagnostic>& found) {
  std::string out;
  for (const auto& d : found) out += d.file + ":" + std::to_string(d.line) + ": " + d.key + ": " + d.message + "\n";
  return out;
}

TEST(CrossCheck, TheMisalignedOcrConfigIsAShiftedLineWithFileAndLine) {
  if (!fs::exists(corpus_dir())) GTEST_SKIP() << "NOT CHECKED: " << corpus_dir() << " is missing";
  const std::string config = "test_tipc/configs/ch_PP-OCRv4_server_rec_ampO2_ultra/train_infer_python.txt";
  const auto found = check_corpus_run(
      "PaddleOCR", "PaddleOCR__test_tipc__configs__ch_PP-OCRv4_server_rec_ampO2_ultra__train_infer_python__whole_infer",
      config, "paddleocr");
  ASSERT_FALSE(found.empty());
  EXPECT_TRUE(found[0].file.ends_with(config));
  // In whole_infer the runner ran `python False`: the infer_quant value, physical line 38.
  EXPECT_TRUE(has(found, 38, "infer_quant", "runs 'False'")) << all(found);
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const Diagnostic& d) {
    return d.message.find("expected") != std::string::npos && d.line > 0;
  })) << all(found);
}

TEST(CrossCheck, TheTruncatedClasConfigIsReportedAtItsEnd) {
  if (!fs::exists(corpus_dir())) GTEST_SKIP() << "NOT CHECKED: " << corpus_dir() << " is missing";
  const auto found =
      check_corpus_run("PaddleClas", "PaddleClas__test_tipc__configs__ResNet__ResNet50_vd_train_linux_gpu_use_dali",
                       "test_tipc/configs/ResNet/ResNet50_vd_train_linux_gpu_use_dali.txt", "paddleclas");
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const Diagnostic& d) {
    return d.message.find("truncated") != std::string::npos && d.line > 0;
  })) << all(found);
}

config::TrainInferConfig make_config(const std::string& text) {
  config::ConfigText lines;
  lines.path = "c.txt";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.lines.push_back({line, "", ++lines.physical_line_count});
  return config::split_config(lines, {config::ValueSplit::kFirstColon, false, false});
}

Plan plan_with_train(const std::vector<std::string>& argv) {
  Plan plan;
  plan.mode = "lite_train_lite_infer";
  Stage stage;
  stage.kind = StageKind::kTrain;
  stage.argv = argv;
  for (const auto& word : argv) stage.results_log.shell_text += word + " ";
  plan.stages.push_back(stage);
  return plan;
}

TEST(CrossCheck, CutValuesDroppedOrIgnoredModeOverridesAndEmptyTrainers) {
  const auto config = make_config(
      "===train_params===\nmodel_name:m\nGlobal.epoch_num:lite_train_lite_infer=1|whole_train_whole_infer=50\n"
      "Train.batch:whole_train_whole_infer=8\nGlobal.pretrained_model:https://host/w.pdparams\n"
      "trainer:norm_train|pact_train\nnorm_train:tools/train.py\npact_train:\n");
  const auto found =
      cross_check(config, nullptr, test::python_script_keys(),
                  plan_with_train({"python", "tools/train.py", "Global.epoch_num=2", "Global.pretrained_model=https"}));
  EXPECT_TRUE(has(found, 5, "Global.pretrained_model", "second colon")) << all(found);
  EXPECT_TRUE(has(found, 3, "Global.epoch_num", "trained with Global.epoch_num=2, not the 1")) << all(found);
  EXPECT_TRUE(has(found, 4, "Train.batch", "not listed")) << all(found);
  EXPECT_TRUE(has(found, 8, "pact_train", "empty script")) << all(found);
  EXPECT_EQ(found.size(), 4u) << all(found);
  const auto strict = strict_cross_check(found);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().exit_code, kExitUsage);
  EXPECT_EQ(strict.error().diagnostics.size(), 4u);
  EXPECT_TRUE(strict_cross_check({}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
