#include "gate/figures.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/text.h"
#include "report/benchmark_log.h"

namespace tipc::gate {
namespace {

using report::StageReport;

// Every rank's logged throughput after its warm-up steps, pooled: samples of one card's ips.
std::vector<double> ips_samples(const report::BenchmarkFigures& figures) {
  std::vector<double> samples;
  for (const report::Curve& curve : figures.ips_curves) {
    const bool skip = !curve.points.empty() && curve.points.back().step > report::kWarmupSteps;
    for (const report::CurvePoint& point : curve.points) {
      if (!skip || point.step > report::kWarmupSteps) samples.push_back(point.value);
    }
  }
  return samples;
}

void add(std::vector<Figure>& out, std::string name, std::string unit, stats::Better better,
         std::vector<double> samples, bool gated = true) {
  out.push_back({std::move(name), std::move(unit), better, std::move(samples), gated});
}

// The step costs are recorded as their medians alone, which only a threshold could judge: on
// a shared machine two runs of the same code differ by more than 5 % (the demo's batch cost
// by up to 25 %, its reader cost of ~50 us by 30 %; bench/RESULTS.md). ips carries the same
// steps with their samples and is tested, so the costs are not gated unless a rule says so.
void add_benchmark(std::vector<Figure>& out, const report::BenchmarkFigures& b) {
  constexpr auto lower = stats::Better::kLower;
  if (b.ips) add(out, "ips", b.ips_unit, stats::Better::kHigher, ips_samples(b));
  if (b.batch_cost_s) add(out, "batch_cost_s", "s", lower, {b.batch_cost_s->median}, false);
  if (b.reader_cost_s) add(out, "reader_cost_s", "s", lower, {b.reader_cost_s->median}, false);
  if (b.max_mem_reserved_mb) add(out, "max_mem_reserved_mb", "MiB", lower, {*b.max_mem_reserved_mb});
  if (b.max_mem_allocated_mb) add(out, "max_mem_allocated_mb", "MiB", lower, {*b.max_mem_allocated_mb});
}

void add_timings(std::vector<Figure>& out, const report::InferenceTimings& t) {
  const std::array<std::pair<const char*, const std::optional<double>*>, 6> timings{{
      {"infer:preprocess_ms", &t.preprocess_ms},
      {"infer:inference_ms", &t.inference_ms},
      {"infer:postprocess_ms", &t.postprocess_ms},
      {"infer:total_ms", &t.total_ms},
      {"infer:cpu_rss_mb", &t.cpu_rss_mb},
      {"infer:gpu_rss_mb", &t.gpu_rss_mb},
  }};
  for (const auto& [name, value] : timings) {
    if (*value)
      add(out, name, std::string_view(name).ends_with("_mb") ? "MiB" : "ms", stats::Better::kLower, {**value});
  }
}

// The driver's figures of the stage's GPUs (issue 40), one value each. Peak memory and mean
// utilisation are gated; power is recorded, not gated: it follows utilisation, clocks and the
// board's power cap, and a drop in it is no regression of the code. A stage that shared its
// GPUs with what this run did not start, or with the previous stage's memory (gpu_warnings),
// has no GPU figures: the driver's readings are not the stage's alone.
void add_gpu(std::vector<Figure>& out, const StageReport& stage) {
  const run::GpuFigures& gpu = stage.gpu;
  if (gpu.empty() || !stage.gpu_warnings.empty()) return;
  if (gpu.memory_peak_mib) add(out, "gpu:memory_peak_mib", "MiB", stats::Better::kLower, {*gpu.memory_peak_mib});
  if (gpu.utilization_mean_percent) {
    add(out, "gpu:utilization_mean_percent", "%", stats::Better::kHigher, {*gpu.utilization_mean_percent});
  }
  if (gpu.power_mean_watts) {
    add(out, "gpu:power_mean_watts", "W", stats::Better::kLower, {*gpu.power_mean_watts}, false);
  }
}

}  // namespace

stats::Better default_direction(const std::string& name) {
  const std::string low = lower(name);
  static constexpr std::array<std::string_view, 9> kLowerIsBetter = {"loss", "err", "cost", "latency", "_ms",
                                                                     "time", "mem", "_mb",  "wer"};
  const bool lower = std::any_of(kLowerIsBetter.begin(), kLowerIsBetter.end(),
                                 [&](std::string_view word) { return low.find(word) != std::string::npos; }) ||
                     low == "cer";
  return lower ? stats::Better::kLower : stats::Better::kHigher;
}

std::vector<Figure> figures_of(const StageReport& stage) {
  std::vector<Figure> out;
  const report::StageMetrics& metrics = stage.metrics;
  if (metrics.benchmark) add_benchmark(out, *metrics.benchmark);
  if (metrics.timings) add_timings(out, *metrics.timings);
  add_gpu(out, stage);
  const bool train = stage.kind == plan::StageKind::kTrain;
  for (const auto& [name, value] : metrics.final_values) {
    const std::string figure = std::string(to_string(stage.kind)) + ":" + name;
    add(out, figure, "", default_direction(name), {value}, !train);
  }
  if (stage.check) {
    for (const report::CheckValue& value : stage.check->values) {
      add(out, "check:" + value.label, "", stats::Better::kLower, {value.value}, false);
    }
  }
  return out;
}

}  // namespace tipc::gate
