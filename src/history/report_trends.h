#pragma once
// report.html's history section (report/trend_html.h): the gated figures of the report's
// stages over the last recorded runs. A run writes its reports before it records itself (a
// damaged history must never cost a report), so the section is added after: once the run
// is recorded, report.html is rendered again with it (atomically), and `tipc-run report DIR`
// adds it when the history can be read. A history that is missing, locked or damaged gives
// a warning and a report.html without the section, never a failure.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "gate/gate_rules.h"
#include "gate/run_snapshot.h"
#include "report/history_trends.h"
#include "report/run_report.h"

namespace tipc::history {

// report.html charts at most this many figures; `tipc-run history --html` draws them all.
inline constexpr std::size_t kReportTrendCharts = 60;

// What the section knows of the report's run beyond its report.
struct RecordedRun {
  std::optional<std::int64_t> id;               // its run id; nullopt: found by its start, finish and repository root
  std::optional<std::int64_t> baseline_run;     // --baseline's run in the history
  const gate::RunSnapshot* baseline = nullptr;  // --baseline's run: this run's points are compared with it
};

// The trends of `report`'s stages in the history at `history_path`, up to the report's run;
// nullopt, with a warning on `err`, when the history cannot be read.
std::optional<report::HistoryTrends> report_trends(const report::RunReport& report, const std::string& history_path,
                                                   const gate::GateRules& rules, const RecordedRun& run,
                                                   std::ostream& err);

// After the run is recorded: its report.html again, with the history section, and its
// bundle (--bundle) again, whose report.html then has the section too.
void add_history_section(const report::RunReport& report, const std::string& history_path, const gate::GateRules& rules,
                         const RecordedRun& run, const std::optional<std::string>& bundle, std::ostream& err);

// For `tipc-run report DIR`: the trends from `history` (--history), else the history the run
// used (its settings' history:, else the repository's default); nullopt when the settings
// turn the history off, or (with a warning) when it cannot be read.
std::optional<report::HistoryTrends> recorded_report_trends(const report::RunReport& report,
                                                            const std::optional<std::string>& history,
                                                            std::ostream& err);

}  // namespace tipc::history
