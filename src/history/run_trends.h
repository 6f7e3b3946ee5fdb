#pragma once
// The run history as trends (report/history_trends.h): each gated figure of each stage over
// the last runs whose stage passed, every point judged by gate's comparison with the point
// before it, so that report.html's history section and `tipc-run history --html` draw
// what `tipc-run compare` would say, by the same rules.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "core/error.h"
#include "gate/gate_rules.h"
#include "gate/run_snapshot.h"
#include "history/run_history.h"
#include "report/history_trends.h"

namespace tipc::history {

using TrendStageKey = std::tuple<std::string, std::string, std::string>;  // config, MODE, stage id

struct TrendRequest {
  std::size_t points = 20;                   // per chart: the last runs that have its stage
  std::optional<std::int64_t> current_run;   // the report's run: later runs are left out, its points marked
  std::optional<std::int64_t> baseline_run;  // marked
  // The current run's points are compared with this run's stages (--baseline), not with the point before.
  const gate::RunSnapshot* baseline = nullptr;
  std::optional<std::set<TrendStageKey>> stages;  // only these; nullopt: every stage in the history
  // At most this many charts: those with a regressed point first, then in order (a
  // 1000-stage run would otherwise add thousands of charts, about 7 KB each, to report.html).
  std::size_t max_charts = std::numeric_limits<std::size_t>::max();
};

// Runs are read newest first, at most this many times `points` of them.
inline constexpr std::size_t kTrendRunsScannedPerPoint = 10;

Result<report::HistoryTrends> load_trends(RunHistory& history, const gate::GateRules& rules,
                                          const TrendRequest& request);

}  // namespace tipc::history
