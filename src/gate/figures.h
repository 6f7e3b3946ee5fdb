#pragma once
// The figures of a finished stage that a later run can be compared on: its benchmark figures
// (throughput with its per-step samples, costs, memory), its evaluation metrics, its
// inference timings, the driver's figures of its GPUs and its check values, each named, with
// its unit and which way is better.
#include <string>
#include <vector>

#include "report/run_report.h"
#include "stats/change.h"

namespace tipc::gate {

struct Figure {
  // "ips", "batch_cost_s", "eval:top1" (its stage kind, then the log's name), "infer:inference_ms",
  // "gpu:memory_peak_mib" (the driver's), "check:logits: max"
  std::string name;
  std::string unit;  // "samples/s", "s", "MiB", "ms", "%", "W", "" (a plain number)
  stats::Better better = stats::Better::kHigher;
  std::vector<double> samples;  // per-step values after warm-up (ips), or the one value
  // Compared without a `gates:` rule naming it. Check values and train-log figures are
  // recorded but not gated by default: a diff of 1e-7 against 2e-7 is no regression, and a
  // train's last logged loss is one noisy value.
  bool gated_by_default = true;
};

std::vector<Figure> figures_of(const report::StageReport& stage);

// Which way a metric named `name` improves when no rule says: lower for losses, errors,
// costs, latencies, times and memory; higher otherwise (accuracy, mAP, hmean, ips).
stats::Better default_direction(const std::string& name);

}  // namespace tipc::gate
