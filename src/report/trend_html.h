#pragma once
// Gated figures over recorded runs in HTML: report.html's history section, and the page
// `tipc-run history --html DIR` writes. Both are pure functions of a HistoryTrends (filled
// by cli from the run history); the page is as self-contained as report.html (inline CSS
// and SVG, nothing fetched).
#include <string>

#include "report/history_trends.h"

namespace tipc::report {

// The section (id "history"): the regressed points first, then a chart per figure, grouped
// by config and MODE; "" when there is no chart.
std::string trend_section(const HistoryTrends& trends);

// A whole page of the section, for every config, MODE and stage of the history.
std::string render_trend_page(const HistoryTrends& trends);

}  // namespace tipc::report
