#include "run/priority.h"

#include <algorithm>
#include <numeric>

namespace tipc::run {
namespace {

// Typical TIPC proportions; used only until a run has recorded real times.
double default_seconds(plan::StageKind kind) {
  switch (kind) {
    case plan::StageKind::kTrain: return 600;
    case plan::StageKind::kEval: return 60;
    case plan::StageKind::kExport:
    case plan::StageKind::kInfer:
    case plan::StageKind::kConvert:
    case plan::StageKind::kOther:
    case plan::StageKind::kSetup: return 30;
    case plan::StageKind::kCheck: return 1;
    case plan::StageKind::kService: return 1;  // its time is its clients'; it is on their path anyway
  }
  return 1;
}

struct Mean {
  double sum = 0;
  int count = 0;
};

}  // namespace

const char* to_string(EstimateSource source) {
  switch (source) {
    case EstimateSource::kRecorded: return "its last run";
    case EstimateSource::kMeanOfKind: return "mean of its kind";
    case EstimateSource::kDefaultOfKind: return "default of its kind";
  }
  return "?";
}

std::vector<Estimate> estimate_seconds(const std::vector<StageCost>& stages,
                                       const std::map<std::string, double>& history) {
  std::map<plan::StageKind, Mean> by_kind;
  for (const auto& stage : stages) {
    if (const auto it = history.find(stage.key); it != history.end()) {
      by_kind[stage.kind].sum += it->second;
      ++by_kind[stage.kind].count;
    }
  }
  std::vector<Estimate> estimates;
  estimates.reserve(stages.size());
  for (const auto& stage : stages) {
    const auto known = history.find(stage.key);
    const auto kind = by_kind.find(stage.kind);
    if (known != history.end()) {
      estimates.push_back({known->second, EstimateSource::kRecorded});
    } else if (kind != by_kind.end()) {
      estimates.push_back({kind->second.sum / kind->second.count, EstimateSource::kMeanOfKind});
    } else {
      estimates.push_back({default_seconds(stage.kind), EstimateSource::kDefaultOfKind});
    }
  }
  return estimates;
}

StartOrder critical_path_order(const std::vector<StageCost>& stages, const std::vector<Estimate>& estimates) {
  // Dependents come after their dependencies, so one backward pass sees each stage's
  // dependents finished before the stage itself.
  StartOrder start;
  std::vector<double> after(stages.size(), 0);  // the longest chain of dependents after a stage
  start.ahead.assign(stages.size(), 0);
  for (std::size_t i = stages.size(); i-- > 0;) {
    start.ahead[i] = estimates[i].seconds + after[i];
    for (const std::size_t dep : stages[i].deps) after[dep] = std::max(after[dep], start.ahead[i]);
  }
  start.order.resize(stages.size());
  std::iota(start.order.begin(), start.order.end(), 0);
  std::stable_sort(start.order.begin(), start.order.end(), [&](std::size_t a, std::size_t b) {
    if (start.ahead[a] != start.ahead[b]) return start.ahead[a] > start.ahead[b];
    return stages[a].gpus > stages[b].gpus;
  });
  return start;
}

}  // namespace tipc::run
