#include "history/history_page.h"

#include <filesystem>

#include "core/atomic_file.h"
#include "history/run_trends.h"
#include "report/trend_html.h"

namespace tipc::history {

Result<WrittenPage> write_history_page(RunHistory& history, const gate::GateRules& rules, std::size_t points,
                                       const std::string& dir) {
  TrendRequest request;
  request.points = points;
  const report::HistoryTrends trends = TRY(load_trends(history, rules, request));
  const std::string path = (std::filesystem::path(dir) / "index.html").string();
  TRY(write_file_atomically(path, report::render_trend_page(trends)));
  return WrittenPage{path, trends.charts.size()};
}

}  // namespace tipc::history
