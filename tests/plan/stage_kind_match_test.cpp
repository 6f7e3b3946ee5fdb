// The kind of a script line comes from its chain's script_keys table (configs/chains.yaml):
// names, globs and "@KEY" lists, the first entry that matches deciding.
#include "plan/stage_kind_match.h"

#include <gtest/gtest.h>

#include "support/shipped_chains.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

TEST(StageKindMatch, AKeyTakesTheKindOfTheFirstEntryThatNamesItByNameGlobOrList) {
  const std::vector<dialect::ScriptKey> keys = {{StageKind::kExport, "*_export"},
                                                {StageKind::kInfer, "inference"},
                                                {StageKind::kTrain, "*_train"},
                                                {StageKind::kTrain, "@trainer"}};
  const std::map<std::string, std::vector<std::string>> listed = {{"trainer", {"norm_train", "quant"}}};
  EXPECT_EQ(kind_of_key(keys, "norm_export", listed), StageKind::kExport);
  EXPECT_EQ(kind_of_key(keys, "inference", listed), StageKind::kInfer);
  EXPECT_EQ(kind_of_key(keys, "pact_train", listed), StageKind::kTrain);
  EXPECT_EQ(kind_of_key(keys, "quant", listed), StageKind::kTrain) << "named by the trainer line";
  EXPECT_EQ(kind_of_key(keys, "quant", {}), std::nullopt);
  EXPECT_EQ(kind_of_key(keys, "train_export", listed), StageKind::kExport) << "the first entry decides";
  EXPECT_EQ(kind_of_key(keys, "--use_gpu", listed), std::nullopt);
}

TEST(StageKindMatch, TheTrainerLineIsAListOfNamesNotAScriptAndNullElementsAreNoScripts) {
  config::TrainInferConfig config;
  config.fields = {{"trainer", "norm_train|quant", "", 5},
                   {"norm_train", "tools/train.py -c a.yml", "", 6},
                   {"quant", "null", "", 7},
                   {"norm_export", "tools/export.py|null", "", 8}};
  const auto lines = script_lines(config, test::python_script_keys());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].key, "norm_train");
  EXPECT_EQ(lines[0].kind, StageKind::kTrain);
  EXPECT_EQ(lines[0].words, (std::vector<std::string>{"tools/train.py", "-c", "a.yml"}));
  EXPECT_EQ(lines[1].kind, StageKind::kExport);
  EXPECT_EQ(match_stage_kind(lines, {"tools/export.py", "--x"}, "").kind, StageKind::kExport);
  EXPECT_EQ(match_stage_kind(lines, {"other.py"}, "out/python_infer_cpu.log").kind, StageKind::kInfer)
      << "no script line: the log's name";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
