#pragma once
// A realistic RunReport for report.html's tests and screenshot: the demo chain's stages
// with train curves of two ranks (parsed from demo-style log lines), eval results, AutoLog
// timings, passing and failing alignment checks with weight histograms, and failures with
// log tails. (sample_report.h holds the small, hostile one of the golden files.)
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "report/log_metrics.h"
#include "report/run_report.h"
#include "support/sample_report.h"

namespace tipc::test::realistic {

inline std::string train_log(int epochs, int iters_per_epoch) {
  std::string log;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const double lr = 0.01 * 0.5 * (1 + std::cos(std::numbers::pi * (epoch - 1) / epochs));
    for (int iter = 1; iter <= iters_per_epoch; ++iter) {
      for (int rank = 0; rank < 2; ++rank) {
        const double x = (epoch - 1) * iters_per_epoch + iter;
        const double loss = 2.3 * std::exp(-x / 22) + 0.12 + 0.07 * std::sin(1.7 * x + rank);
        const double acc = std::clamp(1 - 0.9 * std::exp(-x / 18) + 0.04 * std::cos(2.3 * x + rank), 0.0, 1.0);
        log += fmt::format("[train] rank {}/2 epoch: {}/{}, iter: {}/{}, loss: {:.6f}, lr: {:.6f}, acc: {:.6f}\n", rank,
                           epoch, epochs, iter, iters_per_epoch, loss, lr, acc);
      }
    }
  }
  return log + "[train] rank 0 saved /work/demo/test_tipc/output/alexnet/latest.pt\n";
}

// Counts of `total` values of a normal distribution over `bins` bins of [low, high].
inline std::vector<double> normal_counts(double mean, double sd, double low, double high, int bins, double total) {
  const auto cdf = [&](double x) { return 0.5 * (1 + std::erf((x - mean) / (sd * std::sqrt(2.0)))); };
  std::vector<double> counts;
  const double width = (high - low) / bins;
  for (int b = 0; b < bins; ++b) {
    counts.push_back(std::round(total * (cdf(low + (b + 1) * width) - cdf(low + b * width))));
  }
  return counts;
}

inline report::HistogramPair histogram(const std::string& key, double candidate_sd) {
  report::HistogramPair pair;
  pair.key = key;
  const int bins = 40;
  for (int b = 0; b <= bins; ++b) pair.edges.push_back(-0.2 + 0.4 * b / bins);
  pair.reference = normal_counts(0, 0.05, -0.2, 0.2, bins, 36864);
  pair.candidate = normal_counts(0.004, candidate_sd, -0.2, 0.2, bins, 36864);
  return pair;
}

inline report::StageReport demo_stage(const std::string& id, const std::string& kind, const std::string& result,
                                      double seconds) {
  report::StageReport stage;
  stage.id = id;
  stage.kind = plan::stage_kind_from_string(kind).value();
  stage.result = run::status_from_string(result).value();
  stage.argv = {"/usr/bin/python3", "models/alexnet/" + kind + ".py", "--epochs=12", "--save-dir=./output/alexnet"};
  stage.cwd = "/work/demo";
  stage.log = "/work/demo/test_tipc/output/alexnet/lite_train_lite_infer/" + kind + " logs/" +
              id.substr(id.rfind('/') + 1) + ".log";
  if (result != "SKIPPED" && result != "UNSUPPORTED") {
    stage.started = 1714564800 + seconds;
    stage.seconds = seconds;
    stage.exit_code = result == "PASS" ? 0 : 1;
  }
  return stage;
}

inline report::StageReport infer_stage(const std::string& id, int batch, int threads, double infer_ms) {
  report::StageReport stage = demo_stage(id, "infer", "PASS", 6.4);
  stage.metrics = report::parse_stage_metrics(
      StageKind::kInfer,
      fmt::format("[2024/05/01 12:03:00] root INFO:  runtime_device: cpu\n"
                  "[2024/05/01 12:03:00] root INFO:  cpu_math_library_num_threads: {}\n"
                  "[2024/05/01 12:03:00] root INFO:  precision: fp32\n"
                  "[2024/05/01 12:03:00] root INFO:  batch_size: {}\n"
                  "[2024/05/01 12:03:00] root INFO:  total time spent(s): {}\n"
                  "[2024/05/01 12:03:00] root INFO:  preprocess_time(ms): {}, inference_time(ms): {}, "
                  "postprocess_time(ms): 0.061\n",
                  threads, batch, 0.0081 * infer_ms, 0.31 * batch, infer_ms));
  return stage;
}

inline report::StageReport diff_check_stage() {
  report::StageReport stage = demo_stage("check/eager_vs_torchscript", "check", "PASS", 0.4);
  stage.check =
      report::CheckDetails{.kind = CheckKind::kDiff,
                           .passed = true,
                           .values = {{"logits: mean", 3.1e-08, 1e-06, true}, {"features: mean", 2.2e-09, 1e-06, true}},
                           .histograms = {},
                           .notes = {},
                           .compared_files = {},
                           .result_file = {}};
  return stage;
}

inline report::StageReport init_check_stage() {
  report::StageReport stage = demo_stage("check/init_alignment", "check", "FAIL", 0.9);
  stage.reason = "exit code 1";
  stage.check = report::CheckDetails{
      .kind = CheckKind::kInitCheck,
      .passed = false,
      .values = {{"features.0.weight: KS", 0.0123, 0.0120, false}, {"classifier.1.weight: KS", 0.004, 0.0120, true}},
      .histograms = {histogram("features.0.weight", 0.058), histogram("classifier.1.weight", 0.0505)},
      .notes = {"the candidate's std is 16% above the reference's"},
      .compared_files = {},
      .result_file = {}};
  stage.log_tail = "init-check: features.0.weight: KS 0.0123 > limit 0.012: FAIL\n";
  return stage;
}

inline report::RunReport run_report() {
  report::RunReport run;
  run.tool_version = "0.1.0";
  run.started = 1714564800;  // 2024-05-01 12:00:00 UTC
  run.finished = 1714564800 + 754.2;
  run.jobs = 2;
  run.gpus = {"0", "1"};
  run.resources_source = "--gpus";
  run.repo_root = "/work/demo";

  report::PlanReport plan = plan_of("/work/demo", "alexnet", "lite_train_lite_infer", "paddleocr");

  report::StageReport train = demo_stage("norm_gpus_-1_autocast_null/train", "train", "PASS", 42.3);
  train.metrics = report::parse_stage_metrics(StageKind::kTrain, train_log(12, 6));
  plan.stages.push_back(train);
  report::StageReport eval = demo_stage("norm_gpus_-1_autocast_null/eval", "eval", "PASS", 3.1);
  eval.metrics = report::parse_stage_metrics(StageKind::kEval, "[eval] images: 32, top1: 0.968750, loss: 0.077381\n");
  plan.stages.push_back(eval);
  plan.stages.push_back(demo_stage("norm_gpus_-1_autocast_null/export", "export", "PASS", 5.2));
  plan.stages.push_back(diff_check_stage());
  plan.stages.push_back(init_check_stage());
  plan.stages.push_back(infer_stage("infer/cpu_mkldnn_False_threads_1_precision_fp32_batchsize_1", 1, 1, 3.9));
  plan.stages.push_back(infer_stage("infer/cpu_mkldnn_False_threads_6_precision_fp32_batchsize_2", 2, 6, 2.6));
  report::StageReport gpu = demo_stage("infer/gpu_trt_False_precision_fp16_batchsize_1", "infer", "UNSUPPORTED", 0);
  gpu.reason = "needs 1 GPU; the run has none";
  plan.stages.push_back(gpu);
  report::StageReport onnx = demo_stage("infer/onnx_cpu_threads_1_batchsize_1", "infer", "FAIL", 1.7);
  onnx.reason = "exit code 1; log: python traceback";
  onnx.log_findings = {"python traceback"};
  onnx.log_tail =
      "Traceback (most recent call last):\n"
      "  File \"models/alexnet/infer.py\", line 142, in <module>\n"
      "    main()\n"
      "  File \"models/alexnet/infer.py\", line 117, in main\n"
      "    run = predictor(args, device)\n"
      "\x1b[31mcv2.error: OpenCV(4.6.0) onnx_importer.cpp:1031: error: (-2:Unspecified error) in function "
      "'handleNode' > Node [Gemm]:(onnx_node!/classifier/Linear) parse error & <shape mismatch>\x1b[0m\n";
  plan.stages.push_back(onnx);
  report::StageReport slow = demo_stage("norm_gpus_-1_autocast_null/infer_slow", "infer", "TIMEOUT", 120);
  slow.reason = "timed out after 120 s";
  slow.signal = 15;
  slow.exit_code.reset();
  slow.log_tail = "[2024/05/01 12:05:00] loading model\n";
  plan.stages.push_back(slow);
  plan.stages.push_back(demo_stage("check/inference_vs_ground_truth", "check", "SKIPPED", 0));
  plan.stages.back().reason = "depends on a stage that did not pass";
  run.plans.push_back(plan);

  report::PlanReport whole = plan;
  whole.mode = "whole_infer";
  whole.output_dir = "/work/demo/test_tipc/output/alexnet/whole_infer";
  whole.stages = {infer_stage("whole_infer/cpu_threads_1_batchsize_1", 1, 1, 4.2)};
  run.plans.push_back(whole);
  return run;
}

}  // namespace tipc::test::realistic
