#pragma once
// `tipc-run history --html DIR`: DIR/index.html, one self-contained page (as report.html:
// inline CSS and SVG, nothing fetched) with a chart per gated figure of every config, MODE
// and stage in the run history, over the last runs that have it (report/trend_html.h).
#include <cstddef>
#include <string>

#include "core/error.h"
#include "gate/gate_rules.h"
#include "history/run_history.h"

namespace tipc::history {

struct WrittenPage {
  std::string path;  // DIR/index.html
  std::size_t charts = 0;
};

// Writes the page atomically (DIR is made when missing); `points`: runs per chart.
Result<WrittenPage> write_history_page(RunHistory& history, const gate::GateRules& rules, std::size_t points,
                                       const std::string& dir);

}  // namespace tipc::history
