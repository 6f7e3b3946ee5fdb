#include "history/run_recording.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/error.h"
#include "gate/comparison_text.h"
#include "gate/run_comparison.h"
#include "history/history_location.h"
#include "history/report_trends.h"
#include "history/run_history.h"
#include "history/run_reference.h"
#include "report/bundle.h"
#include "report/report_writer.h"

namespace tipc::history {
namespace {

// The run's id in the history; nullopt (with a warning) when it could not be recorded.
std::optional<std::int64_t> record(const report::RunReport& report, const std::string& path, std::ostream& out,
                                   std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  auto history = RunHistory::open(path);
  auto id = history ? history->record(report, report.report_dir) : tl::unexpected(history.error());
  if (!id) {
    err << fmt::format("tipc-run: warning: the run is not recorded in the run history: {}\n", id.error().str());
    return std::nullopt;
  }
  out << fmt::format("tipc-run: recorded as run {} in {}\n", *id, path);
  return *id;
}

// The comparison's failing rows, as the reports keep them.
report::BaselineResult failing_rows(const gate::RunComparison& comparison, const std::string& baseline,
                                    const std::optional<double>& run_started) {
  report::BaselineResult result{baseline, run_started, {}};
  for (const gate::ComparisonRow& row : gate::comparison_rows(comparison)) {
    if (!row.fails()) continue;
    result.regressions.push_back(
        {row.config, row.mode, row.stage, row.figure, row.base, row.current, row.change, row.why});
  }
  return result;
}

// Compares the run with its baseline on `out` and gives `report` the failing regressions:
// its state (for `tipc-run report DIR`), its reports and its bundle say what the exit code says.
void compare_with_baseline(report::RunReport& report, const RunReference& baseline, const gate::GateRules& rules,
                           const std::optional<std::string>& bundle, std::ostream& out, std::ostream& err) {
  const gate::RunSnapshot current = gate::snapshot_of(report, "this run");
  const gate::RunComparison comparison = gate::compare_runs(baseline.snapshot, current, rules);
  out << gate::console_comparison({baseline.snapshot.label, current.label}, gate::comparison_rows(comparison), false);
  report.baseline = failing_rows(comparison, baseline.snapshot.label, report.started);
  const auto warn = [&err](const Error& error) {
    err << fmt::format("tipc-run: warning: the reports do not show the comparison with the baseline: {}\n",
                       error.str());
  };
  if (report.plans.empty()) return;
  if (auto kept = report::write_baseline_file(report.plans.front().output_dir, *report.baseline); !kept)
    warn(kept.error());
  if (auto written = report::write_reports(report, report.report_dir); !written) return warn(written.error());
  if (!bundle) return;
  if (auto written = report::write_bundle(report, report.report_dir, *bundle); !written) warn(written.error());
}

}  // namespace

std::optional<std::string> history_path_for(const RecordingRequest& request, const config::ProjectSettings& settings,
                                            const std::string& repo_root) {
  if (request.no_history) return std::nullopt;
  return history_path_of(request.history, settings, repo_root);
}

int record_and_compare(std::optional<report::RunReport>& report, const RecordingRequest& request,
                       const config::ProjectSettings& settings, const std::string& repo_root, std::ostream& out,
                       std::ostream& err) {
  const auto path = history_path_for(request, settings, repo_root);
  if (!report || report->interrupted || !report->finished) return kExitPassed;
  // The baseline is found before this run is recorded: `--baseline main` on main means the
  // run before this one.
  std::optional<RunReference> baseline;
  if (request.baseline) {
    auto loaded = resolve_run_reference(*request.baseline, path.value_or(default_history_path(repo_root)));
    if (loaded)
      baseline = std::move(*loaded);
    else
      err << fmt::format("tipc-run: warning: no baseline to compare with: {}\n", loaded.error().str());
  }
  const gate::GateRules rules = gate::rules_from_settings(settings.gates);
  // Compared before it is recorded: the history keeps the verdict the run exits with.
  if (baseline) compare_with_baseline(*report, *baseline, rules, request.bundle, out, err);
  if (const auto id = path ? record(*report, *path, out, err) : std::nullopt) {
    add_history_section(*report, *path, rules,
                        {id, baseline ? baseline->history_run : std::nullopt, baseline ? &baseline->snapshot : nullptr},
                        request.bundle, err);
  }
  return report->baseline && !report->baseline->regressions.empty() ? kExitRegressed : kExitPassed;
}

}  // namespace tipc::history
