// Dependencies from data flow, not from name collisions (issue 38, item 3): a stage depends on
// the latest stage that wrote what it reads; one that only overwrites an earlier stage's output
// keeps the runner's order (Stage::after) and is never SKIPPED for it; stages whose logs share
// a name are not ordered at all (each gets a log of its own).
#include "plan/data_flow.h"

#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "config/config_text.h"
#include "plan/traced_planner.h"
#include "run/scheduler.h"
#include "support/fake_executor.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
using Indices = std::vector<std::size_t>;

PathUse use(std::vector<std::string> reads, std::vector<std::string> writes, std::string log) {
  return {std::move(reads), std::move(writes), std::move(log), false};
}

TEST(DataFlow, StagesWhoseLogsShareANameAreNotOrdered) {
  const auto edges = data_flow_edges({use({"tools/infer.py"}, {}, "out/python_infer_gpu.log"),
                                      use({"tools/infer.py"}, {}, "out/python_infer_gpu.log")});
  EXPECT_EQ(edges.deps[1], Indices{});
  EXPECT_EQ(edges.after[1], Indices{});
}

TEST(DataFlow, AStageThatReadsALogByItsPathDependsOnItsWriter) {
  const auto edges = data_flow_edges({use({"tools/train.py"}, {}, "out/train.log"),
                                      use({"tools/extract.py", "out/train.log"}, {}, "out/extract.log")});
  EXPECT_EQ(edges.deps[1], Indices{0});
}

// Two trains of one config whose line hard-codes `--output=exp/default`, then an eval of it:
// the second train follows the first in order only, the eval reads the second's output.
TEST(DataFlow, ASecondWriterOfAnOutputFollowsTheFirstInOrderOnlyAndItsReadersReadTheSecond) {
  const auto edges = data_flow_edges({use({"tools/train.py"}, {"exp/default"}, "out/t1.log"),
                                      use({"tools/train.py"}, {"exp/default"}, "out/t2.log"),
                                      use({"tools/eval.py", "exp/default/best"}, {}, "out/eval.log")});
  EXPECT_EQ(edges.deps[1], Indices{});
  EXPECT_EQ(edges.after[1], Indices{0});
  EXPECT_EQ(edges.deps[2], Indices{1});
  EXPECT_EQ(edges.after[2], Indices{});
}

TEST(DataFlow, AStageThatOverwritesWhatAnEarlierOneReadsFollowsItInOrderOnly) {
  const auto edges = data_flow_edges(
      {use({"data/list.txt"}, {}, "out/a.log"), use({"tools/make_list.py"}, {"data/list.txt"}, "out/b.log")});
  EXPECT_EQ(edges.deps[1], Indices{});
  EXPECT_EQ(edges.after[1], Indices{0});
}

TEST(DataFlow, AStageWithoutVisibleFlowStillDependsOnWhatCameBefore) {
  PathUse barrier = use({}, {}, "out/op.log");
  barrier.barrier = true;
  const auto edges =
      data_flow_edges({use({"tools/train.py"}, {"exp/a"}, "out/t.log"), barrier, use({"exp/a"}, {}, "out/e.log")});
  EXPECT_EQ(edges.deps[1], Indices{0});
  EXPECT_EQ(edges.deps[2], Indices{1});
}

config::TrainInferConfig config_of(const std::string& text) {
  config::ConfigText lines;
  lines.path = "c.txt";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.lines.push_back({line, "", ++lines.physical_line_count});
  return config::split_config(lines, {config::ValueSplit::kFirstColon, false, false});
}

const char* const kTemplateConfig =
    "===train_params===\nmodel_name:can\npython:python\ngpu_list:0|0,1\ntrainer:norm_train\n"
    "norm_train:tools/train.py --config config_for_tipc.yaml\n===eval_params===\n"
    "eval:tools/train.py --test-only --config config_for_tipc.yaml\n===infer_params===\n"
    "norm_export:tools/export.py\ninference:tools/infer.py\n";

trace::TracedCall traced(std::vector<std::string> args, std::string log, std::string gpus) {
  trace::TracedCall call;
  call.program = "python";
  call.args = std::move(args);
  call.cwd = ".";
  call.eval_index = trace::kNoEval;
  call.stdout_path = std::move(log);
  if (!gpus.empty()) call.env["CUDA_VISIBLE_DEVICES"] = std::move(gpus);
  return call;
}

// A template runner's chains for gpu_list 0|0,1 (CAN_Paddle in the longtail corpus): each
// chain trains, evaluates, exports and infers, and its inference logs are named after the
// device only, so both chains write python_infer_gpu.log and python_infer_cpu.log.
trace::Trace two_gpu_elements() {
  trace::Trace t;
  t.mode = "lite_train_lite_infer";
  for (const std::string gpus : {"0", "0,1"}) {
    std::vector<std::string> train = {"tools/train.py", "--config", "config_for_tipc.yaml"};
    if (gpus == "0,1") train.insert(train.begin(), {"-m", "paddle.distributed.launch", "--gpus=0,1"});
    const std::string n = std::to_string(t.calls.size() + 1);
    t.calls.push_back(traced(train, "out/train_" + n + ".log", gpus));
    t.calls.push_back(
        traced({"tools/train.py", "--test-only", "--config", "config_for_tipc.yaml"}, "out/eval_" + n + ".log", gpus));
    t.calls.push_back(traced({"tools/export.py"}, "out/export_" + n + ".log", gpus));
    t.calls.push_back(traced({"tools/infer.py", "--use_gpu=True"}, "out/python_infer_gpu.log", gpus));
    t.calls.push_back(traced({"tools/infer.py", "--use_gpu=False"}, "out/python_infer_cpu.log", gpus));
  }
  return t;
}

// Runs the plan on the fake executor with stage `failing` exiting 1: each stage's result.
std::map<std::string, run::Status> results_when_failing(const Plan& plan, const std::string& failing) {
  run::FakeExecutor fake;
  fake.scripts[plan.config_path + "#" + failing].exit_code = 1;
  run::SchedulerOptions options;
  options.jobs = 1;
  options.repo_root = "/repo";
  for (int g = 0; g < 2; ++g) options.resources.gpus.push_back({std::to_string(g), 1});
  run::MultiListener none;
  const auto summary = run::run_stages({&plan}, fake, none, options, [] { return false; });
  std::map<std::string, run::Status> results;
  for (const auto& record : summary.stages) results[record.stage->id] = record.verdict.result;
  return results;
}

TEST(TracedDataFlow, TheSecondChainsInferencesFollowItsOwnExportNotTheFirstChainsLogsOfOneName) {
  const auto plan = plan_from_trace(two_gpu_elements(), config_of(kTemplateConfig), {});
  ASSERT_TRUE(plan) << plan.error().str();
  ASSERT_EQ(plan->stages.size(), 10u);
  const auto& s = plan->stages;
  for (const std::size_t infer : {8, 9}) {
    EXPECT_EQ(s[infer].deps, std::vector<std::string>{s[7].id}) << s[infer].id;
    EXPECT_EQ(s[infer].after, std::vector<std::string>{}) << s[infer].id;
  }
  const auto results = results_when_failing(*plan, s[0].id);
  for (const std::size_t i : {1, 2, 3, 4}) EXPECT_EQ(results.at(s[i].id), run::Status::kSkipped) << s[i].id;
  for (const std::size_t i : {5, 6, 7, 8, 9}) EXPECT_EQ(results.at(s[i].id), run::Status::kPass) << s[i].id;
}

TEST(TracedDataFlow, AFailedFirstTrainOfAnOutputDoesNotSkipTheSecondNorItsReaders) {
  trace::Trace t;
  t.mode = "lite_train_lite_infer";
  t.calls = {traced({"tools/train.py", "--output=exp/default"}, "out/train_1.log", "0"),
             traced({"tools/train.py", "--output=exp/default", "--amp"}, "out/train_2.log", "0"),
             traced({"tools/train.py", "--test-only", "--resume=exp/default/best"}, "out/eval.log", "0")};
  const auto plan = plan_from_trace(t, config_of(kTemplateConfig), {});
  ASSERT_TRUE(plan) << plan.error().str();
  const auto& s = plan->stages;
  EXPECT_EQ(s[1].deps, std::vector<std::string>{});
  EXPECT_EQ(s[1].after, std::vector<std::string>{s[0].id});
  EXPECT_EQ(s[2].deps, std::vector<std::string>{s[1].id});
  const auto results = results_when_failing(*plan, s[0].id);
  EXPECT_EQ(results.at(s[0].id), run::Status::kFail);
  EXPECT_EQ(results.at(s[1].id), run::Status::kPass);
  EXPECT_EQ(results.at(s[2].id), run::Status::kPass);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
