// The lints of what the reference passes without a word (issue 24): a parameter line
// without ':' and a use_gpu list shorter than the gpu list, each with file, line and key.
#include "plan/config_lint.h"

#include <gtest/gtest.h>

#include "compat/reference_planning_rules.h"
#include "config/config_text.h"
#include "plan/plan_file.h"
#include "support/chain_config.h"
#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

std::string demo() { return test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"); }

config::TrainInferConfig split(const std::string& text) {
  return config::split_config(config::parse_config_text(text, "alexnet.txt").value(), {});
}

const dialect::Dialect& dialect_named(const std::string& name) {
  static std::map<std::string, dialect::Dialect> cache;
  if (!cache.count(name)) cache[name] = dialect::load_dialect(test::dialect_dir(), name).value();
  return cache[name];
}

TEST(ConfigLint, TheDemoConfigIsClean) {
  const auto found = lint_config(split(demo()), &dialect_named("paddleocr"));
  EXPECT_TRUE(found.errors.empty());
  EXPECT_TRUE(found.warnings.empty());
}

// `--seed 42` reads as the key '--seed 42' with an empty value: the parameter disappears.
TEST(ConfigLint, AParameterLineWithoutAColonIsAnErrorWithItsFix) {
  const auto found = lint_config(split(test::replaced(demo(), "--seed:42", "--seed 42")), nullptr);
  ASSERT_EQ(found.errors.size(), 1u);
  EXPECT_EQ(found.errors[0].str(),
            "alexnet.txt:13: no ':' in this line: the runner reads it all as a key with an "
            "empty value, so the parameter disappears from every command; write it as "
            "KEY:VALUE ('--seed:42')");
  EXPECT_EQ(found.errors[0].key, "--seed 42");
  const auto bare = lint_config(split(test::replaced(demo(), "--seed:42", "--seed")), nullptr);
  ASSERT_EQ(bare.errors.size(), 1u);
  EXPECT_NE(bare.errors[0].message.find("('--seed:null')"), std::string::npos) << bare.errors[0].message;
}

TEST(ConfigLint, HeadersSeparatorsAndCommentsNeedNoColon) {
  const std::string text = test::replaced(demo(), "--seed:42", "# the seed is fixed below");
  EXPECT_TRUE(lint_config(split(text), nullptr).errors.empty());
}

// docs/config-format.md#gpu_list-and-use_gpu: element i of L5 goes with gpu element i; the third train loses --use-gpu.
TEST(ConfigLint, AUseGpuListShorterThanTheGpuListIsAWarningNamingTheUnpairedElements) {
  const std::string text = test::replaced(demo(), "--use-gpu:False|True|True", "--use-gpu:False|True");
  const auto found = lint_config(split(text), &dialect_named("paddleocr"));
  EXPECT_TRUE(found.errors.empty());
  ASSERT_EQ(found.warnings.size(), 1u);
  EXPECT_EQ(found.warnings[0].str(),
            "alexnet.txt:5: 2 values for 3 gpu_list elements ('-1|0|0,1'): the runner pairs "
            "them by position, so no --use-gpu parameter reaches the train of gpu element "
            "'0,1'; give one value per element ('--use-gpu:False|True|True')");
  EXPECT_EQ(found.warnings[0].key, "--use-gpu");
}

// PaddleDetection's whole inference takes quant flag i of L39 for infer mode i of L38.
TEST(ConfigLint, AQuantListShorterThanTheInferModesIsAWarning) {
  const std::string text =
      test::replaced(demo(), "infer_export:models/alexnet/export_model.py", "infer_mode:norm|kl_quant|pact");
  const auto found = lint_config(split(text), &dialect_named("paddledetection"));
  ASSERT_EQ(found.warnings.size(), 1u);
  EXPECT_EQ(found.warnings[0].str(),
            "alexnet.txt:39: 1 value for 3 infer_mode elements ('norm|kl_quant|pact'): the "
            "runner pairs them by position, so no infer_quant flag reaches infer mode "
            "'kl_quant', 'pact' (it runs with an empty one); give one value per element "
            "('infer_quant:False|False|False')");
  EXPECT_TRUE(lint_config(split(text), &dialect_named("paddleocr")).warnings.empty()) << "not paired there";
}

// PaddleClas passes the whole value to every element; null means no parameter anyway.
TEST(ConfigLint, NoPairingWarningWhereTheDialectDoesNotPairOrTheValueIsNull) {
  const std::string one = test::replaced(demo(), "--use-gpu:False|True|True", "--use-gpu:True");
  EXPECT_TRUE(lint_config(split(one), &dialect_named("paddleclas")).warnings.empty());
  EXPECT_EQ(lint_config(split(one), &dialect_named("paddleocr")).warnings.size(), 1u);
  const std::string null = test::replaced(demo(), "--use-gpu:False|True|True", "--use-gpu:null");
  EXPECT_TRUE(lint_config(split(null), &dialect_named("paddleocr")).warnings.empty());
}

// The planner refuses the colon-less line in default mode and warns about the pairing;
// compat plans the reference's commands, the dropped parameter included.
TEST(ConfigLint, DefaultModeRefusesWhatCompatPlans) {
  const std::string text = test::replaced(test::replaced(demo(), "--seed:42", "--seed 42"), "--use-gpu:False|True|True",
                                          "--use-gpu:False|True");
  const auto decoded = config::parse_config_text(text, "alexnet.txt").value();
  PlanOptions options;
  options.mode = "lite_train_lite_infer";
  const auto strict = plan_config(decoded, dialect_named("paddleocr"), options);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().diagnostics.size(), 1u) << strict.error().str();
  options.rules = &tipc::compat::reference_planning_rules();
  EXPECT_TRUE(plan_config(decoded, dialect_named("paddleocr"), options));
  options.rules = &tipc::plan::native_planning_rules();
  const auto warned =
      plan_config(config::parse_config_text(test::replaced(text, "--seed 42", "--seed:42"), "alexnet.txt").value(),
                  dialect_named("paddleocr"), options);
  ASSERT_TRUE(warned) << warned.error().str();
  EXPECT_TRUE(std::any_of(warned->warnings.begin(), warned->warnings.end(),
                          [](const Diagnostic& d) { return d.line == 5 && d.key == "--use-gpu"; }));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
