#include "gate/figures.h"

#include <algorithm>
#include <tuple>

#include <gtest/gtest.h>

namespace tipc::gate {
namespace {
namespace TIPC_TEST_FILE {

const Figure* find(const std::vector<Figure>& figures, const std::string& name) {
  const auto found = std::find_if(figures.begin(), figures.end(), [&](const Figure& f) { return f.name == name; });
  return found == figures.end() ? nullptr : &*found;
}

report::Curve steps(const std::string& name, std::vector<double> values) {
  report::Curve curve{name, {}};
  for (std::size_t i = 0; i < values.size(); ++i) curve.points.push_back({static_cast<double>(i + 1), values[i]});
  return curve;
}

TEST(GateFigures, ThroughputSamplesAreEveryRanksStepsAfterWarmUp) {
  report::StageReport stage;
  stage.kind = plan::StageKind::kTrain;
  report::BenchmarkFigures benchmark;
  benchmark.ips = report::FigureStats{100, 100, 6};
  benchmark.ips_unit = "samples/s";
  benchmark.ips_curves = {steps("ips", {5, 50, 101, 99, 100}), steps("ips (rank 1)", {7, 60, 98})};
  benchmark.batch_cost_s = report::FigureStats{0.12, 0.13, 6};
  benchmark.max_mem_reserved_mb = 1005;
  stage.metrics.benchmark = benchmark;
  stage.metrics.final_values = {{"loss", 0.4}};
  const auto figures = figures_of(stage);

  const Figure* ips = find(figures, "ips");
  ASSERT_TRUE(ips);
  EXPECT_EQ(ips->samples, (std::vector<double>{101, 99, 100, 98}));
  EXPECT_EQ(ips->unit, "samples/s");
  EXPECT_EQ(ips->better, stats::Better::kHigher);
  EXPECT_EQ(find(figures, "batch_cost_s")->samples, std::vector<double>{0.12});
  EXPECT_EQ(find(figures, "batch_cost_s")->better, stats::Better::kLower);
  EXPECT_FALSE(find(figures, "batch_cost_s")->gated_by_default);  // a median alone: ips has the steps
  EXPECT_TRUE(ips->gated_by_default);
  EXPECT_EQ(find(figures, "max_mem_reserved_mb")->better, stats::Better::kLower);
  const Figure* loss = find(figures, "train:loss");
  ASSERT_TRUE(loss);
  EXPECT_FALSE(loss->gated_by_default);  // one noisy value of a training
  EXPECT_EQ(loss->better, stats::Better::kLower);
}

TEST(GateFigures, EvalMetricsTimingsAndCheckValues) {
  report::StageReport eval;
  eval.kind = plan::StageKind::kEval;
  eval.metrics.final_values = {{"top1", 0.97}, {"loss", 0.08}};
  const auto eval_figures = figures_of(eval);
  EXPECT_EQ(find(eval_figures, "eval:top1")->better, stats::Better::kHigher);
  EXPECT_TRUE(find(eval_figures, "eval:top1")->gated_by_default);
  EXPECT_EQ(find(eval_figures, "eval:loss")->better, stats::Better::kLower);

  report::StageReport infer;
  infer.kind = plan::StageKind::kInfer;
  infer.metrics.timings = report::InferenceTimings{};
  infer.metrics.timings->inference_ms = 4.5;
  infer.metrics.timings->cpu_rss_mb = 300;
  infer.check = report::CheckDetails{};
  infer.check->values = {{"logits: max", 1e-7, 1e-5, true}};
  const auto infer_figures = figures_of(infer);
  EXPECT_EQ(find(infer_figures, "infer:inference_ms")->unit, "ms");
  EXPECT_EQ(find(infer_figures, "infer:cpu_rss_mb")->unit, "MiB");
  EXPECT_FALSE(find(infer_figures, "infer:preprocess_ms"));
  EXPECT_FALSE(find(infer_figures, "check:logits: max")->gated_by_default);
}

TEST(GateFigures, DefaultDirections) {
  for (const char* lower :
       {"loss", "CELoss", "batch_cost", "latency", "total_ms", "max_mem_reserved_mb", "cer", "wer"}) {
    EXPECT_EQ(default_direction(lower), stats::Better::kLower) << lower;
  }
  for (const char* higher : {"top1", "acc", "mAP", "hmean", "miou", "ips", "precision"}) {
    EXPECT_EQ(default_direction(higher), stats::Better::kHigher) << higher;
  }
}

TEST(GateFigures, TheDriversGpuFiguresPeakMemoryAndUtilisationGatedPowerRecorded) {
  report::StageReport stage;
  stage.kind = plan::StageKind::kTrain;
  stage.gpu.add({9000, 70, 200, 0});  // MiB, percent, watts, throttle bits
  stage.gpu.add({10240, 100, 300, 0});
  const auto figures = figures_of(stage);
  const Figure* memory = find(figures, "gpu:memory_peak_mib");
  ASSERT_TRUE(memory);
  EXPECT_EQ(std::tie(memory->unit, memory->better, memory->samples, memory->gated_by_default),
            std::tuple("MiB", stats::Better::kLower, std::vector<double>{10240}, true));
  const Figure* utilization = find(figures, "gpu:utilization_mean_percent");
  ASSERT_TRUE(utilization);
  EXPECT_EQ(std::tie(utilization->unit, utilization->better, utilization->samples, utilization->gated_by_default),
            std::tuple("%", stats::Better::kHigher, std::vector<double>{85}, true));
  const Figure* power = find(figures, "gpu:power_mean_watts");
  ASSERT_TRUE(power);
  EXPECT_EQ(std::tie(power->unit, power->better, power->gated_by_default),
            std::tuple("W", stats::Better::kLower, false));
  EXPECT_EQ(figures.size(), 3u);  // the peaks of utilisation and power are shown, not compared

  // A MIG device reports no utilisation nor power: only what the driver gave is a figure.
  stage.gpu.utilization_mean_percent.reset();
  stage.gpu.power_mean_watts.reset();
  EXPECT_EQ(figures_of(stage).size(), 1u);
}

// Another process's memory on the stage's GPU is in the driver's readings: they are not the stage's figures.
TEST(GateFigures, AStageThatSharedItsGpuHasNoGpuFigures) {
  report::StageReport stage;
  stage.kind = plan::StageKind::kInfer;
  stage.gpu.samples = 3;
  stage.gpu.memory_peak_mib = 4096;
  stage.gpu_warnings = {"GPU 0: pid 4242 (python3 other.py) holds 2048 MiB, not started by this run"};
  EXPECT_TRUE(figures_of(stage).empty());
  stage.gpu_warnings.clear();
  EXPECT_EQ(figures_of(stage).size(), 1u);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::gate
