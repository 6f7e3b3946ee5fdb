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
    case plan::StageKind::kInfer: return 30;
    case plan::StageKind::kCheck: return 1;
  }
  return 1;
}

struct Mean {
  double sum = 0;
  int count = 0;
};

}  // namespace

std::vector<double> estimate_seconds(const std::vector<StageCost>& stages, const std::map<std::string, double>& history) {
  std::map<plan::StageKind, Mean> by_kind;
  for (const auto& stage : stages) {
    if (const auto it = history.find(stage.key); it != history.end()) {
      by_kind[stage.kind].sum += it->second;
      ++by_kind[stage.kind].count;
    }
  }
  std::vector<double> seconds;
  seconds.reserve(stages.size());
  for (const auto& stage : stages) {
    const auto known = history.find(stage.key);
    const auto kind = by_kind.find(stage.kind);
    if (known != history.end()) {
      seconds.push_back(known->second);
    } else if (kind != by_kind.end()) {
      seconds.push_back(kind->second.sum / kind->second.count);
    } else {
      seconds.push_back(default_seconds(stage.kind));
    }
  }
  return seconds;
}

std::vector<std::size_t> critical_path_order(const std::vector<StageCost>& stages, const std::vector<double>& seconds) {
  // Dependents come after their dependencies, so one backward pass sees each stage's
  // dependents finished before the stage itself.
  std::vector<double> ahead(stages.size(), 0);  // the longest chain of dependents after a stage
  std::vector<double> chain(stages.size(), 0);  // the stage's own time plus that
  for (std::size_t i = stages.size(); i-- > 0;) {
    chain[i] = seconds[i] + ahead[i];
    for (const std::size_t dep : stages[i].deps) ahead[dep] = std::max(ahead[dep], chain[i]);
  }
  std::vector<std::size_t> order(stages.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (chain[a] != chain[b]) return chain[a] > chain[b];
    return stages[a].gpus > stages[b].gpus;
  });
  return order;
}

}  // namespace tipc::run
