// The traced planner on hand-built traces: kinds by script-line family, GPU needs from
// the launcher's arguments, status lines of a failing stage, the empty-plan error, and the
// dependency rule on the scheduler: a stage never starts before a stage whose output it reads.
#include "plan/traced_planner.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "compat/reference_planning_rules.h"
#include "config/config_text.h"
#include "plan/plan_json.h"
#include "plan/traced_status.h"
#include "run/scheduler.h"
#include "support/fake_executor.h"
#include "support/shipped_chains.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

config::TrainInferConfig make_config(const std::string& text) {
  config::ConfigText lines;
  lines.path = "c.txt";
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.lines.push_back({line, "", ++n});
  lines.physical_line_count = n;
  return config::split_config(lines, {config::ValueSplit::kFirstColon, false, false});
}

const char* const kConfig =
    "===train_params===\nmodel_name:m\npython:python\ngpu_list:0|0,1\ntrainer:norm_train\n"
    "norm_train:tools/train.py -c a.yml -o\n===eval_params===\neval:tools/eval.py -c a.yml -o\n"
    "===infer_params===\nnorm_export:tools/export_model.py -c a.yml -o\ninference:tools/infer.py\n";

// The train/inference chain's script keys (configs/chains.yaml) give the stages' kinds.
const TracedPlanOptions kNative = [] {
  TracedPlanOptions o;
  o.script_keys = test::python_script_keys();
  return o;
}();

const TracedPlanOptions kCompat = [] {
  TracedPlanOptions o = kNative;
  o.rules = &tipc::compat::reference_planning_rules();
  return o;
}();

trace::TracedCall call(std::vector<std::string> args, std::size_t eval, std::string out = "") {
  trace::TracedCall c;
  c.program = "python";
  c.args = std::move(args);
  c.cwd = ".";
  c.eval_index = eval;
  c.stdout_path = std::move(out);
  return c;
}

trace::Trace chain() {
  trace::Trace t;
  t.mode = "lite_train_lite_infer";
  t.evals = {
      "python tools/train.py -c a.yml -o Global.save_model_dir=./out/t", "cat ./out/t/train.log >> ./out/t.log",
      "python tools/eval.py -c a.yml -o Global.checkpoints=./out/t/latest > ./out/t_eval.log 2>&1",
      "python tools/export_model.py -c a.yml -o Global.checkpoints=./out/t/latest Global.save_inference_dir=./out/t",
      "python tools/infer.py --model_dir=./out/t --use_gpu=False > ./out/infer.log 2>&1"};
  t.calls = {call({"tools/train.py", "-c", "a.yml", "-o", "Global.save_model_dir=./out/t"}, 0),
             call({"tools/eval.py", "-c", "a.yml", "-o", "Global.checkpoints=./out/t/latest"}, 2, "out/t_eval.log"),
             call({"tools/export_model.py", "-c", "a.yml", "-o", "Global.checkpoints=./out/t/latest",
                   "Global.save_inference_dir=./out/t"},
                  3, "out/t_export.log"),
             call({"tools/infer.py", "--model_dir=./out/t", "--use_gpu=False"}, 4, "out/infer.log")};
  t.calls[0].env["CUDA_VISIBLE_DEVICES"] = "0";
  std::string log = "---- banner ----\n";
  for (const char* cmd :
       {"python tools/train.py -c a.yml - ./out/t.log", "python tools/eval.py -c a.yml - ./out/t_eval.log",
        "python tools/export_model.py -c a.yml - ./out/t_export.log",
        "python tools/infer.py --model_dir=./out/t - ./out/infer.log"}) {
    log += std::string("\x1b[33m Run successfully with command - m - ") + cmd + " \x1b[0m\n";
  }
  t.status_logs = {{"out/results_python.log", log}};
  return t;
}

TEST(TracedPlanner, KindsComeFromTheConfigsScriptLines) {
  const auto plan = plan_from_trace(chain(), make_config(kConfig), kCompat);
  ASSERT_TRUE(plan) << plan.error().str();
  ASSERT_EQ(plan->stages.size(), 4u);
  EXPECT_EQ(plan->stages[0].kind, StageKind::kTrain);
  EXPECT_EQ(plan->stages[1].kind, StageKind::kEval);
  EXPECT_EQ(plan->stages[2].kind, StageKind::kExport);
  EXPECT_EQ(plan->stages[3].kind, StageKind::kInfer);
  EXPECT_EQ(plan->stages[0].results_log.trainer_log,
            "./out/t/train.log");                 // the runner's `cat ... >>` (D2 in docs/reference-runner.md)
  EXPECT_EQ(plan->stages[0].log, "./out/t.log");  // its stdout was the runner's: the status line's log
  EXPECT_EQ(plan->banner, "---- banner ----");
  EXPECT_EQ(plan->results_log, "out/results_python.log");
}

// A runner that writes no status log (benchmark_train.sh): the plan's directory is its own,
// test_tipc/output/MODEL/MODE, and so are the logs tipc-run names for the runner's own
// stdout; two configs of a suite never meet in test_tipc/output/tipc_stage_1.log.
TEST(TracedPlanner, APlanWithoutAStatusLogHasItsOwnDirectoryForTheLogsItNames) {
  trace::Trace t;
  t.mode = "benchmark_train";
  t.calls = {call({"tools/train.py", "-c", "a.yml"}, 0)};
  t.evals = {"python tools/train.py -c a.yml"};
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_EQ(plan->output_dir, "test_tipc/output/m/benchmark_train");
  EXPECT_EQ(plan->stages.at(0).log, "test_tipc/output/m/benchmark_train/tipc_stage_1.log");
  const auto unnamed = plan_from_trace(t,
                                       make_config("===train_params===\nmodel_name:../x\ntrainer:norm_train\n"
                                                   "norm_train:tools/train.py -c a.yml\n"),
                                       kNative);
  ASSERT_TRUE(unnamed) << unnamed.error().str();
  EXPECT_EQ(unnamed->output_dir, "test_tipc/output/benchmark_train") << "no model name leaves the output tree";
}

// Issue 38: a train whose arguments name no save or output location had its own log for a
// model directory, and the output check refused it as writing that file twice.
TEST(TracedPlanner, ATrainsModelDirectoryIsWhatItsArgumentsSaveToNeverItsLog) {
  trace::Trace t = chain();
  auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_EQ(plan->stages[0].model_dir, "out/t");
  t.calls[0].args = {"tools/train.py", "-c", "a.yml", "-o", "Global.epoch_num=1"};
  plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_EQ(plan->stages[0].model_dir, "") << "not its log " << plan->stages[0].log;
}

TEST(TracedPlanner, AFailingStageGetsTheRunnersLineWithTheOtherWord) {
  const auto plan = plan_from_trace(chain(), make_config(kConfig), kCompat);
  ASSERT_TRUE(plan);
  EXPECT_EQ(render_status_line(*plan, plan->stages[1], false).value(),
            "\x1b[33m Run failed with command - m - python tools/eval.py -c a.yml - ./out/t_eval.log \x1b[0m");
  EXPECT_EQ(render_status_line(*plan, plan->stages[1], true).value(),
            "\x1b[33m Run successfully with command - m - python tools/eval.py -c a.yml - ./out/t_eval.log \x1b[0m");
}

TEST(TracedPlanner, GpuNeedsComeFromTheLaunchersArgumentsAndTheDeviceSwitch) {
  trace::Trace t = chain();
  t.calls[0].args = {"-m",
                     "paddle.distributed.launch",
                     "--ips=10.0.0.1,10.0.0.2",
                     "--gpus=0,1,2,3",
                     "tools/train.py",
                     "-c",
                     "a.yml",
                     "-o",
                     "Global.save_model_dir=./out/t"};
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->stages[0].needs.gpus, 4);
  EXPECT_EQ(plan->stages[0].needs.nodes, 2);
  EXPECT_EQ(plan->stages[0].hosts, "10.0.0.1,10.0.0.2");
  EXPECT_EQ(plan->stages[0].launcher, "paddle.distributed.launch");
  EXPECT_EQ(plan->stages[0].kind, StageKind::kTrain);
  EXPECT_EQ(plan->stages[3].needs.gpus, 0);  // --use_gpu=False
  t.calls[1].env["CUDA_VISIBLE_DEVICES"] = "";
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[1].needs.gpus, 0);  // every GPU hidden
  t.calls[1].env["CUDA_VISIBLE_DEVICES"] = "0";
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[1].needs.gpus, 1);
  t.calls[0].args = {"-m", "torch.distributed.run", "--nproc_per_node=2", "train.py"};
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[0].needs.gpus, 2);
}

// The benchmark record names a benchmark train by these (report/benchmark_record.h).
TEST(TracedPlanner, ATrainCarriesTheBatchSizeAndAutoCastItWasGiven) {
  const std::string config =
      "===train_params===\nmodel_name:m\npython:python\ngpu_list:0\nGlobal.use_gpu:True\n"
      "-o Global.auto_cast:null|amp\nGlobal.epoch_num:lite_train_lite_infer=1\nGlobal.save_model_dir:./out/\n"
      "Train.loader.batch_size_per_card:lite_train_lite_infer=2|benchmark_train=8\ntrainer:norm_train\n"
      "norm_train:tools/train.py -c a.yml -o\n===eval_params===\neval:tools/eval.py -c a.yml -o\n"
      "===infer_params===\nnorm_export:tools/export_model.py -c a.yml -o\ninference:tools/infer.py\n";
  trace::Trace t = chain();
  t.calls[0].args = {"tools/train.py",
                     "-c",
                     "a.yml",
                     "-o",
                     "Global.save_model_dir=./out/t",
                     "Global.auto_cast=amp",
                     "Train.loader.batch_size_per_card=8"};
  const auto plan = plan_from_trace(t, make_config(config), kCompat);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_EQ(plan->stages[0].train_setting, (TrainSetting{"8", "amp"}));
  EXPECT_FALSE(plan->stages[1].train_setting);                                                 // the eval
  t.calls[0].args = {"tools/train.py", "-c", "a.yml", "-o", "Global.save_model_dir=./out/t"};  // null values left out
  EXPECT_EQ(plan_from_trace(t, make_config(config), kCompat)->stages[0].train_setting, (TrainSetting{"", "null"}));
}

// PaddleClas's runner sets CUDA_VISIBLE_DEVICES for a multi-GPU train's inference only, after
// the export, and unsets it after each train: the export sees every GPU and runs on the
// first, as the native dialect plans it.
TEST(TracedPlanner, AStageWithNothingSayingItsDeviceRunsWhereItsInputsWereMade) {
  trace::Trace t = chain();
  t.calls[0].args.insert(t.calls[0].args.begin(), {"-m", "paddle.distributed.launch", "--gpus=0,1"});
  t.calls[0].env["CUDA_VISIBLE_DEVICES"] = std::nullopt;
  const auto gpu = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(gpu) << gpu.error().str();
  EXPECT_EQ(gpu->stages[0].needs.gpus, 2);
  EXPECT_EQ(gpu->stages[1].needs.gpus, 1);  // eval and export read the train's directory
  EXPECT_EQ(gpu->stages[2].needs.gpus, 1);
  EXPECT_EQ(gpu->stages[2].env.at("CUDA_VISIBLE_DEVICES"), std::optional<std::string>("0"));
  EXPECT_EQ(gpu->stages[3].needs.gpus, 0);  // --use_gpu=False decides, whatever it reads
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kCompat)->stages[2].env.at("CUDA_VISIBLE_DEVICES"),
            std::nullopt);  // --compat keeps the traced environment

  t.calls[0].args = {"tools/train.py", "-c", "a.yml", "-o", "Global.save_model_dir=./out/t", "--use_gpu=False"};
  const auto cpu = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->stages[1].needs.gpus, 0);  // a CPU train's eval and export stay on the CPU
  EXPECT_EQ(cpu->stages[2].needs.gpus, 0);
}

// The models template runner exports CUDA_VISIBLE_DEVICES after the train: the train runs
// on the device its eval states.
TEST(TracedPlanner, ATrainWhoseDeviceNothingStatesRunsOnTheDeviceOfTheStagesReadingIt) {
  trace::Trace t = chain();
  t.calls[0].env["CUDA_VISIBLE_DEVICES"] = std::nullopt;
  t.calls[1].env["CUDA_VISIBLE_DEVICES"] = "0";
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[0].needs.gpus, 1);
  t.calls[1].env["CUDA_VISIBLE_DEVICES"] = std::nullopt;  // nothing states any device
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[0].needs.gpus, 0);
}

TEST(TracedPlanner, AnEvalOrInferenceThatReadsNothingEarlierStillRunsAfterWhatTheRunnerRanItAfter) {
  trace::Trace t = chain();
  t.calls[1].args = {"tools/eval.py", "-c", "a.yml"};       // weights found through the model's config
  t.calls[3].args = {"tools/infer.py", "--use_gpu=False"};  // the same
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->stages[1].deps, std::vector<std::string>{plan->stages[0].id});
  EXPECT_EQ(plan->stages[3].deps, std::vector<std::string>{plan->stages[2].id});
}

// PaddleDetection's serving client reads the client config the export wrote, and talks to the
// server started before it: it depends on both, so it waits until that server is ready.
TEST(TracedPlanner, AnInferenceStartedWhileAServerRunsIsItsClientWhateverElseItReads) {
  trace::Trace t = chain();
  t.evals.insert(t.evals.begin() + 4, "python -m serve --model=./out/t --port=9997 > ./out/server.log 2>&1 &");
  t.calls.insert(t.calls.begin() + 3, call({"-m", "serve", "--model=./out/t", "--port=9997"}, 4, "out/server.log"));
  t.calls[4].eval_index = 5;
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan) << plan.error().str();
  ASSERT_EQ(plan->stages.size(), 5u);
  const auto& s = plan->stages;
  ASSERT_EQ(s[3].kind, StageKind::kService);
  EXPECT_EQ(s[3].deps, std::vector<std::string>{s[2].id});             // it serves what export wrote
  EXPECT_EQ(s[4].deps, (std::vector<std::string>{s[2].id, s[3].id}));  // the client: export and server
  t.calls.erase(t.calls.begin() + 3);                                  // no server: the inference reads the export only
  t.calls[3].eval_index = 4;
  EXPECT_EQ(plan_from_trace(t, make_config(kConfig), kNative)->stages[3].deps, std::vector<std::string>{s[2].id});
}

TEST(TracedPlanner, EnvironmentIsTheTracedOneInCompatAndLogicalIdsByDefault) {
  const auto compat = plan_from_trace(chain(), make_config(kConfig), kCompat);
  EXPECT_EQ(compat->stages[0].env.at("CUDA_VISIBLE_DEVICES"), std::optional<std::string>("0"));
  EXPECT_EQ(compat->stages[1].env.at("CUDA_VISIBLE_DEVICES"), std::nullopt);
  trace::Trace t = chain();
  t.calls[1].args.push_back("Global.use_gpu=True");
  const auto plain = plan_from_trace(t, make_config(kConfig), kNative);
  EXPECT_EQ(plain->stages[1].env.at("CUDA_VISIBLE_DEVICES"), std::optional<std::string>("0"));
}

TEST(TracedPlanner, DependenciesFollowTheDataFlow) {
  const auto plan = plan_from_trace(chain(), make_config(kConfig), kNative);
  ASSERT_TRUE(plan);
  const auto& s = plan->stages;
  EXPECT_EQ(s[1].deps, std::vector<std::string>{s[0].id});  // eval reads the train's directory
  EXPECT_EQ(s[2].deps, std::vector<std::string>{s[0].id});  // export too, not the eval
  EXPECT_EQ(s[3].deps, std::vector<std::string>{s[2].id});  // infer reads what export wrote (after train)
}

TEST(TracedPlanner, AStageNeverStartsBeforeAStageWhoseOutputItReads) {
  const auto plan = plan_from_trace(chain(), make_config(kConfig), kNative);
  ASSERT_TRUE(plan);
  run::FakeExecutor fake;
  fake.scripts[plan->config_path + "#" + plan->stages[0].id].seconds = 50;
  fake.scripts[plan->config_path + "#" + plan->stages[2].id].seconds = 20;
  run::SchedulerOptions options;
  options.jobs = 4;
  options.repo_root = "/repo";
  for (int g = 0; g < 4; ++g) options.resources.gpus.push_back({std::to_string(g), 1});
  run::MultiListener none;
  run::run_stages({&*plan}, fake, none, options, [] { return false; });
  ASSERT_EQ(fake.records.size(), 4u);
  std::map<std::string, const run::FakeExecutor::Record*> by_id;
  for (const auto& r : fake.records) by_id[r.id] = &r;
  for (const auto& stage : plan->stages) {
    for (const auto& dep : stage.deps) {
      EXPECT_GE(by_id.at(plan->config_path + "#" + stage.id)->start, by_id.at(plan->config_path + "#" + dep)->end)
          << stage.id << " started before " << dep << " ended";
    }
  }
  EXPECT_EQ(by_id.at(plan->config_path + "#" + plan->stages[2].id)->start,
            by_id.at(plan->config_path + "#" + plan->stages[1].id)->start);  // eval and export in parallel
}

std::string status(const char* word, const std::string& command) {
  return std::string("\x1b[33m ") + word + " with command - m - " + command + " ! \x1b[0m";
}

bool warns(const Plan& plan, const std::string& text) {
  return std::any_of(plan.warnings.begin(), plan.warnings.end(),
                     [&](const Diagnostic& d) { return d.message.find(text) != std::string::npos; });
}

// The models tutorial's PTQ runner: `# eval $export_cmd` commented out, its status_check
// kept. PaddleVideo's C++ serving runner: the server's redirection into a directory that
// does not exist after its `cd` fails, so it never starts, and its line says so. Both lines
// are the runner's own: compat writes them where it did, each with a warning.
TEST(TracedPlanner, LinesOfCommandsTheRunnerNeverStartedAreKeptWhereItWroteThemWithAWarning) {
  trace::Trace t;
  t.mode = "whole_infer";
  t.evals = {"python tools/infer.py --use_gpu=False > ./out/infer.log 2>&1 ",
             "python -m serve --port 9993 > ./out/server.log 2>&1 &"};
  t.calls = {call({"tools/infer.py", "--use_gpu=False"}, 0, "out/infer.log")};
  t.status_logs = {{"out/results_python.log",
                    status("Run successfully", "python tools/export_model.py -c a.yml > ./out/export.log") + "\n" +
                        status("Run successfully", "python tools/infer.py --use_gpu=False > ./out/infer.log") + "\n" +
                        status("Run failed", "python -m serve --port 9993 > ./out/server.log 2>&1 &") + "\n"}};
  const auto plan = plan_from_trace(t, make_config(kConfig), kCompat);
  ASSERT_TRUE(plan) << plan.error().str();
  ASSERT_EQ(plan->stages.size(), 1u);
  ASSERT_TRUE(plan->stages[0].results_log.traced_status);
  EXPECT_EQ(
      plan->leading_status_lines,
      std::vector<std::string>{status("Run successfully", "python tools/export_model.py -c a.yml > ./out/export.log")});
  EXPECT_EQ(plan->stages[0].results_log.trailing_status_lines,
            std::vector<std::string>{status("Run failed", "python -m serve --port 9993 > ./out/server.log 2>&1 &")});
  EXPECT_TRUE(warns(*plan, "status line 1 reports 'Run successfully' with command - m - python tools/export_model.py"));
  EXPECT_TRUE(warns(*plan, "status line 3 reports 'Run failed' with command - m - python -m serve --port 9993"));
  EXPECT_TRUE(warns(*plan, "but no program of it started in the trace: the runner never ran it"));
}

// PaddleClas' test_paddle2onnx.sh writes the inference's line with the conversion's
// `$last_status`: the probes found that (status_sources), and the plan keeps it for compat
// with a warning, since a crashed stage is reported as the other's success.
TEST(TracedPlanner, ALineReportingAnotherCallsExitStatusTakesThatStagesWordWithAWarning) {
  TracedPlanOptions options = kCompat;
  options.status_sources = {0, 0, 2, 3};
  const auto plan = plan_from_trace(chain(), make_config(kConfig), options);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_EQ(plan->stages[1].results_log.status_from, plan->stages[0].id);
  for (const std::size_t i : {0, 2, 3}) EXPECT_EQ(plan->stages[i].results_log.status_from, "") << plan->stages[i].id;
  EXPECT_TRUE(warns(*plan, "results_python.log status line 2 (stage " + plan->stages[1].id +
                               ") reports the exit status of stage " + plan->stages[0].id + ", not its own"));
  EXPECT_EQ(plan_from_trace(chain(), make_config(kConfig), kCompat)->stages[1].results_log.status_from,
            "");  // no probes, no claim
}

// The dy2static runners' `diff -w` of their loss files is a program the runner ran itself:
// tipc-run does not run it, so compat does not claim its result; a warning says so.
TEST(TracedPlanner, TheLineOfAProgramTheRunnerRanItselfIsLeftOutWithAWarning) {
  trace::Trace t = chain();
  t.evals.push_back("diff -w ./out/a_loss.txt ./out/b_loss.txt > ./out/diff.log");
  t.status_logs[0].text +=
      status("Run successfully", "diff -w ./out/a_loss.txt ./out/b_loss.txt > ./out/diff.log") + "\n";
  const auto plan = plan_from_trace(t, make_config(kConfig), kCompat);
  ASSERT_TRUE(plan) << plan.error().str();
  EXPECT_TRUE(plan->leading_status_lines.empty());
  for (const auto& stage : plan->stages) EXPECT_TRUE(stage.results_log.trailing_status_lines.empty()) << stage.id;
  EXPECT_TRUE(warns(*plan, "status line 5 reports 'Run successfully' with command - m - diff -w ./out/a_loss.txt"));
  EXPECT_TRUE(warns(*plan, "a program the runner ran itself and tipc-run does not run as a stage"));
}

// The dy2static runners' `dyout=`cat LOG | python extract_loss.py``: the program's input came
// through a shell pipe and its output went into a variable, which no planned stage can be
// given. It is planned UNSUPPORTED with that reason, never run, and the run says it is partial.
TEST(TracedPlanner, AProgramFedThroughAShellPipeIsUnsupportedNotRunOnNoInput) {
  trace::Trace t = chain();
  t.calls.push_back(call({"test_tipc/extract_loss.py", "-v", "Iter:", "-e", "loss: {%f},"}, trace::kNoEval));
  t.calls.back().stdin_from_pipe = true;
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan) << plan.error().str();
  ASSERT_EQ(plan->stages.size(), 5u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FALSE(plan->stages[i].unsupported) << plan->stages[i].id;
  ASSERT_TRUE(plan->stages[4].unsupported);
  EXPECT_NE(plan->stages[4].unsupported->find("shell pipe (`cat LOG | program`)"), std::string::npos);
  EXPECT_EQ(stage_json(plan->stages[4])["unsupported"], *plan->stages[4].unsupported);

  run::FakeExecutor fake;
  run::SchedulerOptions options;
  options.jobs = 2;
  options.repo_root = "/repo";
  options.resources.gpus.push_back({"0", 1});
  run::MultiListener none;
  const auto summary = run::run_stages({&*plan}, fake, none, options, [] { return false; });
  EXPECT_EQ(fake.records.size(), 4u);  // the piped program never started
  EXPECT_EQ(summary.count(run::Status::kUnsupported), 1);
  EXPECT_EQ(summary.count(run::Status::kPass), 4);
  EXPECT_STREQ(summary.verdict().word(), "PARTIAL");
}

TEST(TracedPlanner, AStageWithoutVisibleDataFlowKeepsTraceOrder) {
  trace::Trace t = chain();
  t.calls.insert(t.calls.begin() + 1, call({"setup_op.py", "install"}, trace::kNoEval));
  const auto plan = plan_from_trace(t, make_config(kConfig), kNative);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->stages[1].kind, StageKind::kOther);
  EXPECT_EQ(plan->stages[1].deps, std::vector<std::string>{plan->stages[0].id});
  EXPECT_EQ(plan->stages[2].deps, std::vector<std::string>{plan->stages[1].id});
  EXPECT_FALSE(render_status_line(*plan, plan->stages[1], true));  // the runner wrote it no line
}

TEST(TracedPlanner, AConfigNamingATrainerThatYieldsNoStageIsAnError) {
  trace::Trace t;
  t.mode = "lite_train_lite_infer";
  auto config = make_config(
      "===train_params===\nmodel_name:m\npython:python\ngpu_list:\ntrainer:norm_train\nnorm_train:tools/train.py\n");
  const auto plan = plan_from_trace(t, config, {});
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().diagnostics[0].line, 5);
  EXPECT_NE(plan.error().str().find("gpu_list (line 4) is empty"), std::string::npos) << plan.error().str();
}

// A runner that starts nothing in a MODE that trains nothing, or for a config whose trainer is
// null: the config may ask for it, but a run of it tests nothing. The default mode refuses it,
// naming the runner and why; --compat plans it empty, as the runner runs it, with that reason
// as a warning (never silent).
TEST(TracedPlanner, ARunnerThatStartsNothingIsRefusedInTheDefaultModeAndAWarningInCompat) {
  trace::Trace t;
  t.runner = "test_tipc/test_train_inference_python.sh";
  t.mode = "whole_infer";
  const auto config = make_config(
      "===train_params===\nmodel_name:m\npython:python\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n");
  const auto refused = plan_from_trace(t, config, {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().diagnostics[0].file, t.runner);
  EXPECT_NE(refused.error().str().find("the runner started no program in mode whole_infer, so this config has nothing "
                                       "to run: the runner exited 0 without starting a program"),
            std::string::npos)
      << refused.error().str();
  t.mode = "lite_train_lite_infer";
  EXPECT_FALSE(plan_from_trace(t, make_config("===train_params===\nmodel_name:m\ntrainer:null\n"), {}));

  t.mode = "whole_infer";
  const auto planned = plan_from_trace(t, config, kCompat);
  ASSERT_TRUE(planned) << planned.error().str();
  EXPECT_TRUE(planned->stages.empty());
  ASSERT_EQ(planned->warnings.size(), 1u);
  EXPECT_NE(planned->warnings[0].message.find("the plan has 0 stages: the runner exited 0 without starting a program"),
            std::string::npos)
      << planned->warnings[0].message;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
