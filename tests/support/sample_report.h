#pragma once
// A report model with a bit of everything, fixed times and paths, for the renderers'
// golden files: one plan with every result, checks of the three kinds, text that needs
// escaping (markup characters, control characters, invalid UTF-8), and a second plan.
#include <string>

#include "report/run_report.h"

namespace tipc::test {

// `kind` and `result` as the reports spell them ("infer", "PASS"); a misspelt one throws.
inline report::StageReport sample_stage(std::string id, const std::string& kind, const std::string& result,
                                        std::string reason) {
  report::StageReport s;
  s.id = std::move(id);
  s.kind = plan::stage_kind_from_string(kind).value();
  s.result = run::status_from_string(result).value();
  s.reason = std::move(reason);
  s.argv = {"python3", "tools/" + kind + ".py", "-o", "Global.use_gpu=False"};
  s.cwd = "/repo";
  s.log = "/repo/test_tipc/output/alexnet/lite_train_lite_infer/" + kind + ".log";
  return s;
}

inline report::StageReport ran(report::StageReport s, double started, double seconds, int exit_code) {
  s.started = started;
  s.seconds = seconds;
  s.exit_code = exit_code;
  return s;
}

// A plan of test_tipc/configs/<model>.txt under `repo_root`, without stages.
inline report::PlanReport plan_of(const std::string& repo_root, const std::string& model, const std::string& mode,
                                  const std::string& dialect) {
  report::PlanReport plan;
  plan.config = "test_tipc/configs/" + model + ".txt";
  plan.config_file = repo_root + "/" + plan.config;
  plan.mode = mode;
  plan.model = model;
  plan.dialect = dialect;
  plan.output_dir = repo_root + "/test_tipc/output/" + model + "/" + mode;
  return plan;
}

inline report::PlanReport sample_plan() {
  using report::CheckValue;
  report::PlanReport plan = plan_of("/repo", "alexnet", "lite_train_lite_infer", "paddleocr");

  auto train = ran(sample_stage("norm_train/gpus_-1/train", "train", "PASS", ""), 1700000000.5, 12.25, 0);
  train.env = {{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"FLAGS_cudnn_deterministic", "1"}};
  train.metrics.curves = {{"loss", {{1, 2.5}, {2, 1.25}}}};
  train.metrics.final_values = {{"top1", 0.5}};
  train.job_id = "4711";  // run as a Slurm job on two nodes
  train.nodes = "node[1-2]";
  report::BenchmarkFigures figures;
  figures.ips = report::FigureStats{120.5, 118.25, 10};
  figures.ips_unit = "samples/s";
  figures.batch_cost_s = report::FigureStats{0.0625, 0.07, 10};
  figures.max_mem_reserved_mb = 2048;
  figures.skipped_steps = 2;
  figures.ips_curves = {{"ips", {{1, 60}, {2, 100}, {3, 120.5}}}};
  train.metrics.benchmark = figures;

  auto eval = ran(sample_stage("norm_train/gpus_-1/eval", "eval", "FAIL", "exit code 3 <&\"'>"), 1700000013, 2, 3);
  eval.deps = {"norm_train/gpus_-1/train"};
  eval.log_tail =
      "Traceback (most recent call last):\n  a < b && \"c\" 'd'\n\x1b[31mred\x1b[0m \x07"
      "bell \xff\xfe bytes\n";
  eval.error_line = "ValueError: top1 < 0 & \"nan\"";

  auto infer = ran(sample_stage("norm_train/gpus_-1/infer/cpu_bs1", "infer", "TIMEOUT", "timed out after 5 s"),
                   1700000013, 5, 0);
  infer.exit_code.reset();
  infer.signal = 15;
  infer.log_tail = "still running\n";
  infer.metrics.timings = report::InferenceTimings{1.5, 10.25, 0.5, 12.25, 1, "fp32", "cpu", 1, 717.5, {}, {}, {}};

  auto gpu = sample_stage("norm_train/gpus_0/train", "train", "UNSUPPORTED", "needs 1 GPU; 0 available (--gpus)");
  gpu.gpus_needed = 1;
  auto skipped =
      sample_stage("norm_train/gpus_-1/export", "export", "SKIPPED", "not started (the run ended before it)");
  auto resumed =
      ran(sample_stage("norm_train/gpus_-1/export_prev", "export", "PASS", "passed in an earlier run (--resume)"),
          1690000000, 1, 0);
  resumed.resumed = true;

  auto diff = ran(sample_stage("norm_train/gpus_-1/export/check/eager_vs_onnx", "check", "FAIL", "exit code 1"),
                  1700000020, 0.125, 1);
  diff.log = "/repo/test_tipc/output/alexnet/lite_train_lite_infer/export_check_eager_vs_onnx.log";
  report::CheckDetails diff_check;
  diff_check.kind = CheckKind::kDiff;
  diff_check.values = {CheckValue{"logits: mean", 1e-7, 1e-6, true}, CheckValue{"logits: max", 2.5e-5, 1e-6, false}};
  diff_check.notes = {"only in B: logits.bias"};
  diff_check.compared_files = {"/repo/out/eager.npy", "/repo/out/onnx.npy"};
  diff.check = diff_check;

  auto compare =
      ran(sample_stage("norm_train/gpus_-1/infer/cpu_bs1/check/truth", "check", "PASS", ""), 1700000021, 0.5, 0);
  report::CheckDetails compare_check;
  compare_check.kind = CheckKind::kCompareResults;
  compare_check.passed = true;
  compare_check.values = {CheckValue{"python_infer_cpu_fp32.log: ./lite_data/a|b.ppm", 2e-6, 1.000913, true}};
  compare.check = compare_check;

  auto init = ran(sample_stage("norm_train/gpus_-1/train/check/init", "check", "PASS", ""), 1700000022, 0.25, 0);
  report::CheckDetails init_check;
  init_check.kind = CheckKind::kInitCheck;
  init_check.passed = true;
  init_check.values = {CheckValue{"fc.weight: KS", 0.0125, 0.0326, true}};
  init_check.histograms = {{"fc.weight", {-1, 0, 1}, {10, 12}, {11, 11}}};
  init.check = init_check;

  plan.stages = {train, eval, infer, gpu, skipped, resumed, diff, compare, init};
  return plan;
}

inline report::RunReport sample_run_report() {
  report::RunReport run;
  run.tool_version = "0.1.0";
  run.started = 1700000000;
  run.finished = 1700000030.5;
  run.jobs = 2;
  run.gpus = {};
  run.resources_source = "--gpus";
  run.repo_root = "/repo";
  run.settings_file = "/repo/test_tipc/tipc-run.yaml";
  run.plans = {sample_plan()};
  report::PlanReport second = plan_of("/repo", "other", "whole_infer", "paddleclas");
  second.stages = {ran(sample_stage("infer/cpu", "infer", "PASS", ""), 1700000001, 3.5, 0)};
  run.plans.push_back(second);
  report::Environment environment;
  environment.host = "ci-7";
  environment.os = "Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64";
  environment.cpu_model = "AMD EPYC 7763";
  environment.cpu_cores = 16;
  environment.memory_bytes = 68719476736;
  environment.gpus = {{"Tesla T4", "550.54.15"}};
  environment.interpreter = report::InterpreterInfo{"python3", "3.11.2", {{"torch", "2.1.2"}}};
  environment.repository = report::RepositoryState{"0123456789abcdef0123456789abcdef01234567", "main", true};
  environment.tool_version = "0.1.0";
  environment.command_line = {"tipc-run", "test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "-k", "a|b"};
  run.environment = environment;
  return run;
}

// The sample run with --retries: its first train FLAKY after a FAIL and a TIMEOUT, its eval
// FAILed on both tries.
inline report::RunReport sample_run_report_with_retries() {
  report::RunReport run = sample_run_report();
  const std::string dir = "/repo/test_tipc/output/alexnet/lite_train_lite_infer/";
  report::StageReport& train = run.plans[0].stages[0];
  train.result = run::Status::kFlaky;
  train.reason = "passed on attempt 3 of 3; attempt 1: FAIL exit code 1";
  train.attempts = {{run::Status::kFail, "exit code 1", 1700000001, 2, 1, std::nullopt, dir + "train.attempt1.log",
                     "Traceback (most recent call last):\nValueError: <lr>\n"},
                    {run::Status::kTimeout, "timed out after 5 s", 1700000003, 5, std::nullopt, 15,
                     dir + "train.attempt2.log", "still running\n"}};
  report::StageReport& eval = run.plans[0].stages[1];
  eval.attempts = {{run::Status::kFail, "exit code 3", 1700000011, 1, 3, std::nullopt, dir + "eval.attempt1.log", ""}};
  return run;
}

}  // namespace tipc::test
