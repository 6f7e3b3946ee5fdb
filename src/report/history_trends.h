#pragma once
// What report.html's history section and `tipc-run history --html`'s page show: gated
// figures followed over recorded runs. A plain model, filled from the run history
// (history/run_trends.h) with each point already judged by gate's comparison; the report
// layer only draws it (trend_html.h), so it knows neither the history nor the gate rules.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tipc::report {

// A figure's median in one recorded run.
struct TrendPoint {
  std::int64_t run = 0;        // its id in the run history
  std::string commit, branch;  // "" outside git
  double value = 0;
  // The comparison with the point before it (or with the baseline), as gate worded it:
  // "REGRESSED -20.00% p=1.08e-05 against run 11"; "" for a point with nothing to compare with.
  std::string comparison;
  bool regressed = false;  // that comparison says REGRESSED
  bool baseline = false;   // the run --baseline named
  bool current = false;    // the run the report is of
};

// One gated figure of one stage over the runs that have it.
struct TrendChart {
  std::string config, mode, stage;  // the stage's identity across runs
  std::string metric, unit;         // "ips", "samples/s"
  bool higher_is_better = true;
  std::vector<TrendPoint> points;  // oldest first
};

struct HistoryTrends {
  std::string history;              // the file the runs were read from
  std::vector<TrendChart> charts;   // by config, MODE and stage, then in figure order
  std::size_t charts_left_out = 0;  // beyond the most a page shows (history/run_trends.h)
};

}  // namespace tipc::report
