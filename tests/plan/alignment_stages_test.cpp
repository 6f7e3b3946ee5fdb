// Alignment checks become `check` stages after the stages that produce their files.
#include "plan/alignment_stages.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

Stage stage(std::string id, StageKind kind, std::string log, std::string model_dir) {
  Stage s;
  s.id = std::move(id);
  s.kind = kind;
  s.log = std::move(log);
  s.model_dir = std::move(model_dir);
  s.cwd = ".";
  return s;
}

Plan demo_plan() {
  Plan plan;
  plan.model_name = "alexnet";
  plan.mode = "lite_train_lite_infer";
  plan.output_dir = "test_tipc/output/alexnet/lite_train_lite_infer";
  const std::string out = plan.output_dir + "/";
  plan.stages = {
      stage("cpu/train", StageKind::kTrain, out + "cpu.log", out + "cpu"),
      stage("cpu/export", StageKind::kExport, out + "cpu_export.log", out + "cpu"),
      stage("cpu/infer/fp32_bs1", StageKind::kInfer, out + "infer_fp32_bs1.log", out + "cpu"),
      stage("cpu/infer/fp16_bs1", StageKind::kInfer, out + "infer_fp16_bs1.log", out + "cpu"),
      stage("gpu/train", StageKind::kTrain, out + "gpu.log", out + "gpu"),
      stage("gpu/export", StageKind::kExport, out + "gpu_export.log", out + "gpu"),
  };
  return plan;
}

// `after` as the settings read it: a stage kind's word, or a glob over stage ids.
config::AlignmentCheckSetting check(std::string name, const std::string& after, CheckKind subcommand,
                                    std::vector<std::string> arguments) {
  const auto kind = stage_kind_from_string(after);
  const config::StagesAfter stages{kind, kind ? "" : after, after};
  return {std::move(name), stages, subcommand, std::move(arguments), "tipc-run.yaml:3", {}};
}

// A check reads its files from the run directory, whatever directory the stage it follows
// ran in: a serving client runs in its serving directory, its log is the run directory's.
TEST(AlignmentStages, RunsInTheRunDirectoryNotInTheCwdOfTheStageItFollows) {
  std::vector<Plan> plans{demo_plan()};
  plans[0].run_dir = "tutorials/step6";
  plans[0].stages[2].cwd = "deploy/serving";
  const auto added = add_alignment_stages(
      plans,
      {check("gt", "cpu/infer/fp32_bs1", CheckKind::kCompareResults, {"--gt", "results/*.txt", "--log", "{log}"})},
      "/opt/tipc-run");
  ASSERT_TRUE(added.has_value()) << added.error().str();
  EXPECT_EQ(plans[0].stages.back().cwd, "tutorials/step6");
}

TEST(AlignmentStages, OneCheckPerProducingStageDependingOnIt) {
  std::vector<Plan> plans{demo_plan()};
  const auto added = add_alignment_stages(plans,
                                          {check("eager_vs_ts", "export", CheckKind::kDiff,
                                                 {"{model_dir}/forward_eager.npy", "{model_dir}/forward_ts.npy"})},
                                          "/opt/tipc-run");
  ASSERT_TRUE(added.has_value()) << added.error().str();
  ASSERT_EQ(plans[0].stages.size(), 8u);
  const Stage& cpu = plans[0].stages[6];
  EXPECT_EQ(cpu.id, "cpu/export/check/eager_vs_ts");
  EXPECT_EQ(cpu.kind, StageKind::kCheck);
  EXPECT_EQ(cpu.deps, std::vector<std::string>{"cpu/export"});
  EXPECT_EQ(cpu.argv,
            (std::vector<std::string>{
                "/opt/tipc-run", "diff", "test_tipc/output/alexnet/lite_train_lite_infer/cpu/forward_eager.npy",
                "test_tipc/output/alexnet/lite_train_lite_infer/cpu/forward_ts.npy", "--json",
                "test_tipc/output/alexnet/lite_train_lite_infer/cpu_export_check_eager_vs_ts.json"}));
  EXPECT_EQ(cpu.log, "test_tipc/output/alexnet/lite_train_lite_infer/cpu_export_check_eager_vs_ts.log");
  EXPECT_EQ(cpu.check, (CheckSpec{CheckKind::kDiff,
                                  "test_tipc/output/alexnet/lite_train_lite_infer/"
                                  "cpu_export_check_eager_vs_ts.json"}));
  EXPECT_EQ(cpu.results_log.status_log, cpu.log);
  EXPECT_EQ(cpu.needs.gpus, 0);
  EXPECT_EQ(plans[0].stages[7].deps, std::vector<std::string>{"gpu/export"});
}

TEST(AlignmentStages, AfterGlobSelectsStagesByIdAndLogIsTheProducersLog) {
  std::vector<Plan> plans{demo_plan()};
  const auto added = add_alignment_stages(
      plans,
      {check("gt", "*/infer/*fp32*", CheckKind::kCompareResults, {"--gt", "results/{model}_*.txt", "--log", "{log}"})},
      "tipc-run");
  ASSERT_TRUE(added.has_value()) << added.error().str();
  ASSERT_EQ(plans[0].stages.size(), 7u) << "fp16 inference has no check";
  const Stage& gt = plans[0].stages.back();
  EXPECT_EQ(gt.id, "cpu/infer/fp32_bs1/check/gt");
  EXPECT_EQ(gt.argv[3], "results/alexnet_*.txt");
  EXPECT_EQ(gt.argv[5], "test_tipc/output/alexnet/lite_train_lite_infer/infer_fp32_bs1.log");
  EXPECT_EQ(gt.results_log.command,
            "tipc-run compare-results --gt 'results/alexnet_*.txt' --log "
            "test_tipc/output/alexnet/lite_train_lite_infer/infer_fp32_bs1.log --json "
            "test_tipc/output/alexnet/lite_train_lite_infer/infer_fp32_bs1_check_gt.json");
}

TEST(AlignmentStages, ChecksSpreadOverEveryPlanOfASuite) {
  std::vector<Plan> plans{demo_plan(), demo_plan()};
  plans[1].model_name = "resnet";
  ASSERT_TRUE(add_alignment_stages(plans, {check("c", "train", CheckKind::kInitCheck, {"{model}.npy", "b.npy"})}, "t"));
  EXPECT_EQ(plans[0].stages.back().check->kind, CheckKind::kInitCheck);
  EXPECT_EQ(plans[0].stages.back().argv[2], "alexnet.npy");
  EXPECT_EQ(plans[1].stages.back().argv[2], "resnet.npy");
}

TEST(AlignmentStages, AfterMatchingNothingIsAnErrorNamingTheSettingsLine) {
  std::vector<Plan> plans{demo_plan()};
  const auto added = add_alignment_stages(plans, {check("c", "*/onnx_export", CheckKind::kDiff, {"a", "b"})}, "t");
  ASSERT_FALSE(added.has_value());
  EXPECT_NE(added.error().str().find("tipc-run.yaml:3"), std::string::npos) << added.error().str();
  EXPECT_NE(added.error().str().find("after '*/onnx_export' matches no stage"), std::string::npos);
  EXPECT_EQ(plans[0].stages.size(), 6u);
}

TEST(AlignmentStages, UnknownVariableOrMissingModelDirIsAnError) {
  std::vector<Plan> plans{demo_plan()};
  const auto unknown =
      add_alignment_stages(plans, {check("c", "export", CheckKind::kDiff, {"{save_dir}/a.npy", "b"})}, "t");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().str().find("known: {model_dir}, {log}"), std::string::npos) << unknown.error().str();
  plans[0].stages[1].model_dir.clear();
  const auto no_dir =
      add_alignment_stages(plans, {check("c", "cpu/export", CheckKind::kDiff, {"{model_dir}/a.npy", "b"})}, "t");
  ASSERT_FALSE(no_dir.has_value());
  EXPECT_NE(no_dir.error().str().find("stage cpu/export has no model directory"), std::string::npos);
}

TEST(AlignmentStages, ACheckWithModesFollowsOnlyThePlansOfThoseModes) {
  std::vector<Plan> plans{demo_plan(), demo_plan()};
  plans[1].mode = "whole_infer";
  auto exact = check("exact", "*/infer/*fp32*", CheckKind::kCompareResults, {"--log", "{log}"});
  exact.modes = {"whole_infer"};
  auto labels =
      check("labels", "*/infer/*fp32*", CheckKind::kCompareResults, {"--log", "{log}", "--compare", "labels"});
  labels.modes = {"lite_train_lite_infer", "whole_train_whole_infer"};
  ASSERT_TRUE(add_alignment_stages(plans, {exact, labels}, "t"));
  ASSERT_EQ(plans[0].stages.size(), 7u);
  EXPECT_EQ(plans[0].stages.back().id, "cpu/infer/fp32_bs1/check/labels");
  ASSERT_EQ(plans[1].stages.size(), 7u);
  EXPECT_EQ(plans[1].stages.back().id, "cpu/infer/fp32_bs1/check/exact");
}

TEST(AlignmentStages, ACheckForOtherModesAddsNothingAndMatchingNothingInItsModeIsAnError) {
  std::vector<Plan> plans{demo_plan()};
  auto elsewhere = check("c", "*/onnx_export", CheckKind::kDiff, {"a", "b"});
  elsewhere.modes = {"whole_infer"};
  ASSERT_TRUE(add_alignment_stages(plans, {elsewhere}, "t")) << "it does not apply to this run";
  EXPECT_EQ(plans[0].stages.size(), 6u);
  elsewhere.modes = {"whole_infer", "lite_train_lite_infer"};
  const auto added = add_alignment_stages(plans, {elsewhere}, "t");
  ASSERT_FALSE(added.has_value());
  EXPECT_NE(added.error().str().find("after '*/onnx_export' matches no stage"), std::string::npos);
}

TEST(AlignmentStages, ChecksNeverFollowChecks) {
  std::vector<Plan> plans{demo_plan()};
  ASSERT_TRUE(add_alignment_stages(plans, {check("a", "*", CheckKind::kDiff, {"x", "y"})}, "t"));
  EXPECT_EQ(plans[0].stages.size(), 12u) << "one check per original stage, none for the new checks";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
