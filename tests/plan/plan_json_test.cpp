// A stage's JSON (dry run, plan file) reads back as written: every field it writes, a check
// stage's typed description, the step that makes its directory; a bad field names the file,
// the stage and the field.
#include "plan/plan_json.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

nlohmann::json written(const Stage& stage) { return nlohmann::json::parse(stage_json(stage).dump()); }

TEST(PlanJson, ACheckStagesDescriptionReadsBackAsWritten) {
  for (const CheckKind kind : {CheckKind::kDiff, CheckKind::kCompareResults, CheckKind::kInitCheck}) {
    Stage stage;
    stage.id = "cpu/export/check/a";
    stage.kind = StageKind::kCheck;
    stage.check = CheckSpec{kind, "out/cpu_export_check_a.json"};
    const auto read = stage_from_json(written(stage), "plan.json");
    ASSERT_TRUE(read) << read.error().str();
    EXPECT_EQ(read->check, stage.check) << to_string(kind);
  }
}

TEST(PlanJson, AStageWithoutACheckHasNoCheckField) {
  Stage stage;
  stage.id = "cpu/train";
  EXPECT_FALSE(written(stage).contains("check"));
  const auto read = stage_from_json(written(stage), "plan.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_FALSE(read->check);
}

TEST(PlanJson, OnlyATrainStageOfANativePlanHasATrainSetting) {
  Stage stage;
  stage.id = "norm_train/gpus_0/autocast_null/train";
  EXPECT_FALSE(written(stage).contains("train_setting"));
  EXPECT_FALSE(stage_from_json(written(stage), "plan.json")->train_setting);
  stage.train_setting = TrainSetting{"", "null"};
  EXPECT_EQ(written(stage)["train_setting"], nlohmann::json({{"batch_size", ""}, {"autocast", "null"}}));
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
  const auto read = stage_from_json(json, "plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("plan.json"), std::string::npos) << read.error().str();
  EXPECT_NE(read.error().str().find("stage cpu/export/check/a: field 'check.kind'"), std::string::npos)
      << read.error().str();
  json["check"].erase("result_file");
  json["check"]["kind"] = "diff";
  EXPECT_NE(stage_from_json(json, "plan.json").error().str().find("'check.result_file'"), std::string::npos);
}

TEST(PlanJson, EveryFieldItWritesReadsBack) {
  Stage stage;
  stage.id = "gpu/serving/server";
  stage.kind = StageKind::kService;
  stage.argv = {"python3", "web_service.py", "--port=9998"};
  stage.cwd = "deploy/serving";
  stage.env = {{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"FLAGS_x", "1"}};
  stage.log = "test_tipc/output/m/lite/server.log";
  stage.deps = {"gpu/export", "gpu/convert"};
  stage.after = {"gpu/train", "gpu/eval"};
  stage.needs = {2, 3};
  stage.benchmark = true;
  stage.launcher = "paddle.distributed.launch";
  stage.processes = 4;
  stage.results_log.command = "python3 web_service.py --port=9998 > server.log 2>&1 &";
  stage.service = Service{9998, "Running on", 30.5};
  stage.unsupported = "needs two nodes";
  stage.cwd_made_by = "setup step s1 (`mkdir -p deploy/serving`)";
  stage.check = CheckSpec{CheckKind::kInitCheck, "out/check.json"};
  stage.train_setting = TrainSetting{"8", "amp"};
  const auto read = stage_from_json(written(stage), "plan.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->id, stage.id);
  EXPECT_EQ(read->kind, stage.kind);
  EXPECT_EQ(read->argv, stage.argv);
  EXPECT_EQ(read->cwd, stage.cwd);
  EXPECT_EQ(read->env, stage.env);
  EXPECT_EQ(read->log, stage.log);
  EXPECT_EQ(read->deps, stage.deps);
  EXPECT_EQ(read->after, stage.after);
  EXPECT_EQ(read->needs.gpus, 2);
  EXPECT_EQ(read->needs.nodes, 3);
  EXPECT_TRUE(read->benchmark);
  EXPECT_EQ(read->launcher, stage.launcher);
  EXPECT_EQ(read->processes, 4);
  EXPECT_EQ(read->results_log.command, stage.results_log.command);
  ASSERT_TRUE(read->service);
  EXPECT_EQ(read->service->port, 9998);
  EXPECT_EQ(read->service->ready_pattern, "Running on");
  EXPECT_EQ(read->service->ready_timeout, 30.5);
  EXPECT_EQ(read->unsupported, stage.unsupported);
  EXPECT_EQ(read->cwd_made_by, stage.cwd_made_by);
  EXPECT_EQ(read->check, stage.check);
  EXPECT_EQ(read->train_setting, stage.train_setting);
  EXPECT_EQ(written(*read), written(stage)) << "written again, the same JSON";
}

// Stage::after is written only where a stage has one: plans without shared outputs, and
// the plan files of earlier versions, read as they were.
TEST(PlanJson, AStageOrderedAfterNoOtherHasNoAfterField) {
  Stage stage;
  stage.id = "train";
  EXPECT_FALSE(written(stage).contains("after"));
  const auto read = stage_from_json(written(stage), "plan.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_TRUE(read->after.empty());
}

TEST(PlanJson, AnUnknownKindOrAFieldOfTheWrongTypeNamesTheFileTheStageAndTheField) {
  Stage stage;
  stage.id = "cpu/train";
  auto json = written(stage);
  json["kind"] = "distill";
  auto read = stage_from_json(json, "/out/.tipc-plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("/out/.tipc-plan.json"), std::string::npos) << read.error().str();
  EXPECT_NE(read.error().str().find("stage cpu/train: field 'kind': unknown stage kind 'distill'"), std::string::npos)
      << read.error().str();
  json["kind"] = "train";
  json["argv"] = "python3 train.py";
  read = stage_from_json(json, "/out/.tipc-plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("stage cpu/train: field 'argv': not a list of strings"), std::string::npos)
      << read.error().str();
  json["argv"] = nlohmann::json::array();
  json.erase("needs");
  read = stage_from_json(json, "/out/.tipc-plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("field 'needs': missing"), std::string::npos) << read.error().str();
  json["needs"] = {{"gpus", 1}};
  json["train_setting"] = {{"batch_size", 8}};  // the config's text, never a number
  read = stage_from_json(json, "/out/.tipc-plan.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("stage cpu/train: field 'train_setting.batch_size'"), std::string::npos)
      << read.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
