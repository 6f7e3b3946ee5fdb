// A stage's JSON (dry run, plan file, journal) keeps a check stage's typed description and
// the step that makes its directory.
#include "plan/plan_json.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {

nlohmann::json written(const Stage& stage) { return nlohmann::json::parse(stage_json(stage).dump()); }

TEST(PlanJson, ACheckStagesDescriptionReadsBackAsWritten) {
  for (const CheckKind kind : {CheckKind::kDiff, CheckKind::kCompareResults, CheckKind::kInitCheck}) {
    Stage stage;
    stage.id = "cpu/export/check/a";
    stage.kind = StageKind::kCheck;
    stage.check = CheckSpec{kind, "out/cpu_export_check_a.json"};
    const auto read = check_spec_from_json(written(stage), "plan.json");
    ASSERT_TRUE(read) << read.error().str();
    EXPECT_EQ(*read, stage.check) << to_string(kind);
  }
}

TEST(PlanJson, AStageWithoutACheckHasNoCheckField) {
  Stage stage;
  stage.id = "cpu/train";
  EXPECT_FALSE(written(stage).contains("check"));
  const auto read = check_spec_from_json(written(stage), "plan.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_FALSE(*read);
}

// The step that makes a stage's directory is written where the planner knows it, and only there.
TEST(PlanJson, TheStepThatMakesTheWorkingDirectoryIsWrittenOnlyWhenKnown) {
  Stage stage;
  stage.id = "cpp_infer/cmake";
  stage.cwd = "deploy/cpp/build";
  EXPECT_FALSE(written(stage).contains("cwd_made_by"));
  stage.cwd_made_by = "setup step setup_1 (`mkdir -p build` in deploy/cpp)";
  EXPECT_EQ(written(stage)["cwd_made_by"], stage.cwd_made_by);
}

TEST(PlanJson, AnUnknownCheckKindNamesTheStageAndTheField) {
  Stage stage;
  stage.id = "cpu/export/check/a";
  stage.check = CheckSpec{CheckKind::kDiff, "a.json"};
  auto json = written(stage);
  json["check"]["kind"] = "acceptance";
  const auto read = check_spec_from_json(json, "plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("plan.json"), std::string::npos) << read.error().str();
  EXPECT_NE(read.error().str().find("stage cpu/export/check/a: field 'check.kind'"), std::string::npos)
      << read.error().str();
  json["check"].erase("result_file");
  json["check"]["kind"] = "diff";
  EXPECT_NE(check_spec_from_json(json, "plan.json").error().str().find("'check.result_file'"), std::string::npos);
}

}  // namespace
}  // namespace tipc::plan
