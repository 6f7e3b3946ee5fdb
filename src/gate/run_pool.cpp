#include "gate/run_pool.h"

#include <map>
#include <tuple>

#include "stats/change.h"

namespace tipc::gate {
namespace {

using PoolKey = std::tuple<std::string, std::string, std::string>;  // config, mode, stage id

// A figure of the pool: its first run's description, then one median per run that passed.
void add_run_median(StageSnapshot& pooled, const Figure& figure) {
  for (Figure& known : pooled.figures) {
    if (known.name == figure.name) return known.samples.push_back(stats::median(figure.samples));
  }
  Figure first = figure;
  first.samples = {stats::median(figure.samples)};
  pooled.figures.push_back(std::move(first));
}

}  // namespace

RunSnapshot pool_runs(const std::vector<RunSnapshot>& runs, std::string label) {
  RunSnapshot pool{std::move(label), {}, runs.size()};
  std::map<PoolKey, std::size_t> where;                        // a stage's place in pool.stages
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {  // newest first: its order and results
    for (const StageSnapshot& stage : run->stages) {
      const PoolKey key{stage.config, stage.mode, stage.stage};
      if (!where.contains(key)) {
        where[key] = pool.stages.size();
        pool.stages.push_back({stage.config, stage.mode, stage.stage, stage.kind, stage.result, stage.seconds, {}});
      }
    }
  }
  for (const RunSnapshot& run : runs) {  // oldest first: the samples in run order
    for (const StageSnapshot& stage : run.stages) {
      if (!run::is_passed(stage.result)) continue;
      StageSnapshot& pooled = pool.stages[where.at({stage.config, stage.mode, stage.stage})];
      for (const Figure& figure : stage.figures) add_run_median(pooled, figure);
    }
  }
  return pool;
}

}  // namespace tipc::gate
