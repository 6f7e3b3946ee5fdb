// Configs of one suite that share an output directory each get their own; stages whose logs
// share a name get their own names; what still writes one file twice is found.
#include "plan/output_separation.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {

Stage stage(const std::string& id, StageKind kind, const std::string& log) {
  Stage s;
  s.id = id;
  s.kind = kind;
  s.log = log;
  return s;
}

Plan ocr_plan(const std::string& config) {
  Plan p;
  p.config_path = config;
  p.output_dir = "./test_tipc/output/det/lite";
  p.results_log = p.output_dir + "/results_python.log";
  Stage train = stage("norm/train", StageKind::kTrain, "./test_tipc/output/det/lite/norm.log");
  train.argv = {"python3", "tools/train.py", "-o", "Global.save_model_dir=./test_tipc/output/det/lite/norm",
                "--out='test_tipc/output/det/lite'", "test_tipc/output/det/lite_other/x", "a/test_tipc/output/det/lite.b"};
  train.model_dir = "./test_tipc/output/det/lite/norm";
  train.env["OUT"] = "test_tipc/output/det/lite/env";
  train.results_log.traced_status = ResultsLogFields::TracedStatus{" Run ", " - ./test_tipc/output/det/lite/norm.log"};
  Stage check = stage("norm/check", StageKind::kCheck, "test_tipc/output/det/lite/check.log");
  check.check = CheckSpec{CheckKind::kDiff, "test_tipc/output/det/lite/check.json"};
  p.stages = {train, check};
  return p;
}

TEST(OutputSeparation, RelocationMovesEveryPathBelowTheDirectoryAndNothingElse) {
  Plan p = ocr_plan("a.txt");
  relocate_output(p, p.output_dir, "./test_tipc/output/det/lite/a");
  const Stage& train = p.stages[0];
  EXPECT_EQ(p.output_dir, "./test_tipc/output/det/lite/a");
  EXPECT_EQ(p.results_log, "./test_tipc/output/det/lite/a/results_python.log");
  EXPECT_EQ(train.log, "./test_tipc/output/det/lite/a/norm.log");
  EXPECT_EQ(train.argv[3], "Global.save_model_dir=./test_tipc/output/det/lite/a/norm");
  EXPECT_EQ(train.argv[4], "--out='test_tipc/output/det/lite/a'");
  EXPECT_EQ(train.argv[5], "test_tipc/output/det/lite_other/x") << "another directory that starts alike";
  EXPECT_EQ(train.argv[6], "a/test_tipc/output/det/lite.b") << "a file beside the directory";
  EXPECT_EQ(train.model_dir, "./test_tipc/output/det/lite/a/norm");
  EXPECT_EQ(*train.env.at("OUT"), "test_tipc/output/det/lite/a/env");
  EXPECT_EQ(train.results_log.traced_status->after, " - ./test_tipc/output/det/lite/a/norm.log");
  EXPECT_EQ(p.stages[1].check->result_file, "test_tipc/output/det/lite/a/check.json");
}

TEST(OutputSeparation, PlansSharingADirectoryEachGetOneNamedAfterTheirConfig) {
  std::vector<Plan> plans = {ocr_plan("c/train.txt"), ocr_plan("d/train.txt"), ocr_plan("amp.txt")};
  plans.push_back(ocr_plan("alone.txt"));
  plans.back().output_dir = "./test_tipc/output/other/lite";
  EXPECT_EQ(separate_shared_outputs(plans), 3u);
  EXPECT_EQ(plans[0].output_dir, "./test_tipc/output/det/lite/train");
  EXPECT_EQ(plans[1].output_dir, "./test_tipc/output/det/lite/train-2") << "stems that agree are numbered";
  EXPECT_EQ(plans[2].output_dir, "./test_tipc/output/det/lite/amp");
  EXPECT_EQ(plans[3].output_dir, "./test_tipc/output/other/lite") << "a plan alone keeps the reference layout";
  EXPECT_EQ(plans[3].stages[0].log, "./test_tipc/output/det/lite/norm.log") << "its paths were not moved";
  EXPECT_TRUE(find_output_clashes(plans).empty());
}

TEST(OutputSeparation, ALogBesideTheSharedDirectoryMovesIntoThePlansOwn) {
  std::vector<Plan> plans = {ocr_plan("a.txt"), ocr_plan("b.txt")};
  for (auto& plan : plans) plan.stages[1].log = "test_tipc/output/det/whole_infer_export_0.log";
  separate_shared_outputs(plans);
  EXPECT_EQ(plans[0].stages[1].log, "./test_tipc/output/det/lite/a/whole_infer_export_0.log");
  EXPECT_EQ(plans[1].stages[1].log, "./test_tipc/output/det/lite/b/whole_infer_export_0.log");
  EXPECT_TRUE(find_output_clashes(plans).empty());
}

TEST(OutputSeparation, AClashIsFoundWithBothStagesWithinAPlanAndAcrossPlans) {
  std::vector<Plan> plans = {ocr_plan("a.txt"), ocr_plan("b.txt")};
  const auto across = find_output_clashes(plans);
  ASSERT_EQ(across.size(), 4u) << "two logs, a check file and the train's model directory";
  EXPECT_EQ(across[0].first_plan, 0u);
  EXPECT_EQ(across[0].second_plan, 1u);
  EXPECT_EQ(across[0].path, "test_tipc/output/det/lite/norm.log");

  Plan one = ocr_plan("a.txt");
  one.stages[1].log = "test_tipc/output/det/lite/./norm.log";
  const auto within = find_output_clashes({one});
  ASSERT_EQ(within.size(), 1u);
  EXPECT_EQ(within[0].first_stage, "norm/train");
  EXPECT_EQ(within[0].second_stage, "norm/check");
}

TEST(OutputSeparation, LogsOfOneNameAreRenamedAfterTheirStageWithAWarning) {
  Plan p;
  p.config_path = "win.txt";
  p.stages = {stage("fp32/infer/cpu", StageKind::kInfer, "out/python_infer_cpu.log"),
              stage("amp/infer/cpu", StageKind::kInfer, "out/python_infer_cpu.log"),
              stage("amp2/infer/cpu", StageKind::kInfer, "out/python_infer_cpu.log")};
  p.stages[2].id = "amp/infer/cpu2";
  EXPECT_EQ(separate_shared_logs(p), 2u);
  EXPECT_EQ(p.stages[0].log, "out/python_infer_cpu.log");
  EXPECT_EQ(p.stages[1].log, "out/amp_python_infer_cpu.log");
  EXPECT_EQ(p.stages[2].log, "out/amp_2_python_infer_cpu.log");
  ASSERT_EQ(p.warnings.size(), 1u) << "one warning per plan";
  EXPECT_EQ(p.warnings[0].message,
            "2 stages write a log of an earlier stage's name, which the reference overwrites (fp32/infer/cpu and "
            "amp/infer/cpu both write out/python_infer_cpu.log): each later one is written as <the first part of its "
            "id>_<name>");
  EXPECT_TRUE(find_output_clashes({p}).empty());
}

TEST(OutputSeparation, ALogThatAStageReadsKeepsItsNameAndTheClashIsRefused) {
  Plan p;
  p.config_path = "x.txt";
  p.stages = {stage("a", StageKind::kTrain, "out/train.log"), stage("b", StageKind::kTrain, "out/train.log"),
              stage("c", StageKind::kOther, "out/c.log")};
  p.stages[2].argv = {"grep", "loss", "out/train.log"};
  EXPECT_EQ(separate_shared_logs(p), 0u);
  EXPECT_EQ(find_output_clashes({p}).size(), 1u);
}

}  // namespace
}  // namespace tipc::plan
