// Configs of one suite that share an output directory each get their own; stages whose logs
// share a name get their own names; stages of one plan that write one output run in turn;
// what still writes one file twice is found, with why.
#include "plan/output_separation.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

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
  train.argv = {"python3",
                "tools/train.py",
                "-o",
                "Global.save_model_dir=./test_tipc/output/det/lite/norm",
                "--out='test_tipc/output/det/lite'",
                "test_tipc/output/det/lite_other/x",
                "a/test_tipc/output/det/lite.b"};
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

// `tipc-run DIR A,B` over a runner whose output path names no MODE: one config's two plans
// share a directory, and the second is named after its MODE too.
TEST(OutputSeparation, OneConfigInTwoModesGetsADirectoryPerMode) {
  std::vector<Plan> plans = {ocr_plan("c/train.txt"), ocr_plan("c/train.txt")};
  plans[0].mode = "lite_train_lite_infer";
  plans[1].mode = "whole_infer";
  EXPECT_EQ(separate_shared_outputs(plans), 2u);
  EXPECT_EQ(plans[0].output_dir, "./test_tipc/output/det/lite/train");
  EXPECT_EQ(plans[1].output_dir, "./test_tipc/output/det/lite/train_whole_infer");
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

TEST(OutputSeparation, ALogThatAStageReadsKeepsItsNameAndTheClashIsRefusedWithTheReason) {
  Plan p;
  p.config_path = "x.txt";
  p.stages = {stage("a", StageKind::kTrain, "out/train.log"), stage("b", StageKind::kTrain, "out/train.log"),
              stage("c", StageKind::kOther, "out/c.log")};
  p.stages[2].argv = {"grep", "loss", "out/train.log"};
  EXPECT_EQ(separate_shared_logs(p), 0u);
  EXPECT_EQ(order_shared_outputs(p), 0u) << "a log is not ordered: each stage writes its own";
  const auto clashes = find_output_clashes({p});
  ASSERT_EQ(clashes.size(), 1u);
  EXPECT_EQ(clashes[0].reason,
            "each stage writes a log of its own, and stage c reads this one by its name, so neither can be given "
            "another");
}

// Issue 38: a traced train whose arguments name no output directory had its own log for a
// model directory, and the check refused the plan: `stage tipc_stage_1/train would write
// test_tipc/output/M/tipc_stage_1.log, which stage tipc_stage_1/train writes too`.
TEST(OutputSeparation, AStageNeverClashesWithItself) {
  Plan p;
  p.config_path = "m.txt";
  Stage train = stage("tipc_stage_1/train", StageKind::kTrain, "test_tipc/output/M/tipc_stage_1.log");
  train.model_dir = "./test_tipc/output/M/tipc_stage_1.log";
  train.results_log.trainer_log = "test_tipc/output/M/./tipc_stage_1.log";
  p.stages = {train};
  EXPECT_TRUE(find_output_clashes({p}).empty());
  EXPECT_EQ(order_shared_outputs(p), 0u);
  EXPECT_TRUE(p.warnings.empty());
}

// PaddleVideo's runner trains each GPU element with `> LOG_PATH/train.log`, then appends that
// log to its results (`cat LOG_PATH/train.log >> ...`): the trainer log is the stage's own log.
// The second train's log is renamed, and its trainer log with it; before, the trainer log kept
// the old name and the plan was refused (`stage train/train#2 would write .../train.log, which
// stage train/train writes too`), 17 recorded PaddleVideo runs of 28.
TEST(OutputSeparation, ATrainerLogThatIsTheStagesOwnLogIsRenamedWithIt) {
  Plan p;
  p.config_path = "BMN.txt";
  for (const std::string id : {"train/train", "train/train#2"}) {
    Stage train = stage(id, StageKind::kTrain, "test_tipc/output/BMN/lite/train.log");
    train.results_log.trainer_log = "./test_tipc/output/BMN/lite/train.log";
    p.stages.push_back(train);
  }
  p.stages.push_back(stage("train/other", StageKind::kTrain, "test_tipc/output/BMN/lite/train.log"));
  p.stages[2].results_log.trainer_log = "test_tipc/output/BMN/lite/trainer.log";
  EXPECT_EQ(separate_shared_logs(p), 2u);
  EXPECT_EQ(p.stages[0].results_log.trainer_log, "./test_tipc/output/BMN/lite/train.log");
  EXPECT_EQ(p.stages[1].log, "test_tipc/output/BMN/lite/train_train.log");
  EXPECT_EQ(p.stages[1].results_log.trainer_log, p.stages[1].log);
  EXPECT_EQ(p.stages[2].results_log.trainer_log, "test_tipc/output/BMN/lite/trainer.log") << "another file stays";
  EXPECT_TRUE(find_output_clashes({p}).empty());
}

// Three trains whose trainer line hard-codes `--output=exp/default`, each with the eval (and
// inference) that reads what it saved, and a stage that reads none of it.
Plan trains_of_one_output() {
  Plan p;
  p.config_path = "m.txt";
  const auto train = [](const std::string& gpus, const std::string& model_dir) {
    Stage s = stage("gpus_" + gpus + "/train", StageKind::kTrain, "out/train_gpus_" + gpus + ".log");
    s.model_dir = model_dir;
    return s;
  };
  const auto after = [](Stage s, std::vector<std::string> deps) {
    s.deps = std::move(deps);
    return s;
  };
  p.stages = {train("0", "exp/default"),
              after(stage("gpus_0/eval", StageKind::kEval, "out/eval_0.log"), {"gpus_0/train"}),
              after(stage("gpus_0/infer", StageKind::kInfer, "out/infer_0.log"), {"gpus_0/eval"}),
              stage("lint", StageKind::kOther, "out/lint.log"),
              train("0,1", "./exp/default/"),
              after(stage("gpus_0,1/eval", StageKind::kEval, "out/eval_01.log"), {"gpus_0,1/train"}),
              train("0,1,2", "exp/default")};
  return p;
}

TEST(OutputSeparation, StagesOfOnePlanThatWriteOneOutputRunInThePlansOrderWithOneWarning) {
  Plan p = trains_of_one_output();
  EXPECT_TRUE(find_output_clashes({p}).empty()) << "not refused: the runner runs them one after the other";
  EXPECT_EQ(order_shared_outputs(p), 1u);
  EXPECT_EQ(p.stages[4].after, (std::vector<std::string>{"gpus_0/train", "gpus_0/eval", "gpus_0/infer"}))
      << "after the first train and what reads its output, not after lint";
  EXPECT_EQ(p.stages[6].after, (std::vector<std::string>{"gpus_0,1/train", "gpus_0,1/eval"}));
  EXPECT_TRUE(p.stages[4].deps.empty()) << "an order, not a dependency: a failed first train does not skip it";
  for (const std::size_t i : {0u, 1u, 2u, 3u, 5u}) EXPECT_TRUE(p.stages[i].after.empty()) << p.stages[i].id;
  ASSERT_EQ(p.warnings.size(), 1u) << "one warning per plan";
  EXPECT_EQ(p.warnings[0].message,
            "exp/default is written by gpus_0/train, then gpus_0,1/train, then gpus_0,1,2/train, whose output stays: "
            "stages that write one output run one at a time in the runner's order, each with its own log, as the "
            "runner runs them");
  EXPECT_TRUE(find_output_clashes({p}).empty());
}

TEST(OutputSeparation, AWriterThatWaitsForTheOneBeforeItAlreadyGetsOnlyWhatItDoesNotWaitFor) {
  Plan p = trains_of_one_output();
  p.stages[4].deps = {"gpus_0/eval"};  // a traced plan's data flow: it waits for that eval's end already
  order_shared_outputs(p);
  EXPECT_EQ(p.stages[4].after, std::vector<std::string>{"gpus_0/infer"});
}

TEST(OutputSeparation, ManySharedOutputsAreOneWarningNamingTheFirstThree) {
  Plan p;
  p.config_path = "m.txt";
  for (const std::string run : {"a", "b"}) {
    for (const std::string out : {"1", "2", "3", "4", "5"}) {
      Stage check = stage(run + "/check" + out, StageKind::kCheck, "out/" + run + out + ".log");
      check.check = CheckSpec{CheckKind::kDiff, "out/check" + out + ".json"};
      p.stages.push_back(check);
    }
  }
  EXPECT_EQ(order_shared_outputs(p), 5u);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_TRUE(
      p.warnings[0].message.starts_with("out/check1.json is written by a/check1, then b/check1, whose "
                                        "output stays; out/check2.json"))
      << p.warnings[0].message;
  EXPECT_NE(p.warnings[0].message.find("; and 2 more outputs: "), std::string::npos) << p.warnings[0].message;
  EXPECT_EQ(p.stages[5].after, std::vector<std::string>{"a/check1"});
}

TEST(OutputSeparation, AFileOfTwoPlansIsRefusedWithTheReason) {
  std::vector<Plan> plans = {trains_of_one_output(), trains_of_one_output()};
  plans[1].config_path = "n.txt";
  for (auto& stage : plans[1].stages) stage.log = "other/" + stage.log;
  const auto clashes = find_output_clashes(plans);
  ASSERT_EQ(clashes.size(), 3u) << "exp/default, once per train of the second plan";
  EXPECT_EQ(clashes[0].first_plan, 0u);
  EXPECT_EQ(clashes[0].second_plan, 1u);
  EXPECT_EQ(clashes[0].path, "exp/default");
  EXPECT_EQ(clashes[0].reason,
            "the configs of a suite run side by side, and the runner gives them no order: run this config by itself");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
