#include "history/report_trends.h"

#include <filesystem>

#include <fmt/format.h>

#include "config/project_settings.h"
#include "core/atomic_file.h"
#include "history/history_location.h"
#include "history/run_trends.h"
#include "report/bundle.h"
#include "report/html_report.h"

namespace tipc::history {
namespace {

void warn(const Error& error, std::ostream& err) {
  err << fmt::format("tipc-run: warning: report.html has no history section: {}\n", error.str());
}

Result<report::HistoryTrends> trends_of(const report::RunReport& report, const std::string& history_path,
                                        const gate::GateRules& rules, const RecordedRun& run) {
  auto history = TRY(RunHistory::open(history_path, false));
  TrendRequest request;
  request.current_run = run.id ? run.id : TRY(history.find(report));
  request.baseline_run = run.baseline_run;
  request.baseline = run.baseline;
  request.max_charts = kReportTrendCharts;
  // The stages that passed: only they have a point of this run (and the others would keep
  // the reading going back to its limit).
  request.stages.emplace();
  for (const auto& plan : report.plans) {
    for (const auto& stage : plan.stages) {
      if (run::is_passed(stage.result)) request.stages->insert({plan.config, plan.mode, stage.id});
    }
  }
  return load_trends(history, rules, request);
}

}  // namespace

std::optional<report::HistoryTrends> report_trends(const report::RunReport& report, const std::string& history_path,
                                                   const gate::GateRules& rules, const RecordedRun& run,
                                                   std::ostream& err) {
  auto trends = trends_of(report, history_path, rules, run);
  if (!trends) {
    warn(trends.error(), err);
    return std::nullopt;
  }
  return std::move(*trends);
}

void add_history_section(const report::RunReport& report, const std::string& history_path, const gate::GateRules& rules,
                         const RecordedRun& run, const std::optional<std::string>& bundle, std::ostream& err) {
  auto trends = report_trends(report, history_path, rules, run, err);
  if (!trends) return;
  report::RunReport with_trends = report;  // once, at the end of the run
  with_trends.trends = std::move(trends);
  const std::string path = (std::filesystem::path(report.report_dir) / "report.html").string();
  if (auto written = write_file_atomically(path, report::render_html_report(with_trends)); !written) {
    warn(written.error(), err);
  }
  // The bundle's report.html is rendered from the report, so the bundle is written again.
  if (!bundle) return;
  if (auto written = report::write_bundle(with_trends, report.report_dir, *bundle); !written) {
    err << fmt::format("tipc-run: warning: the bundle has no history section: {}\n", written.error().str());
  }
}

std::optional<report::HistoryTrends> recorded_report_trends(const report::RunReport& report,
                                                            const std::optional<std::string>& history,
                                                            std::ostream& err) {
  config::ProjectSettings settings;
  if (!report.settings_file.empty()) {
    auto loaded = config::load_project_settings(report.settings_file);
    if (!loaded) {
      warn(loaded.error(), err);
      return std::nullopt;
    }
    settings = std::move(*loaded);
  }
  const auto path = history_path_of(history, settings, report.repo_root);
  if (!path) return std::nullopt;
  return report_trends(report, *path, gate::rules_from_settings(settings.gates), {}, err);
}

}  // namespace tipc::history
