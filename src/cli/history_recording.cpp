#include "cli/history_recording.h"

#include <filesystem>

#include <fmt/format.h>

#include "cli/history_location.h"
#include "cli/report_trends.h"
#include "cli/run_reference.h"
#include "core/error.h"
#include "gate/comparison_text.h"
#include "gate/run_comparison.h"
#include "history/run_history.h"

namespace tipc::cli {
namespace {

// The run's id in the history; nullopt (with a warning) when it could not be recorded.
std::optional<std::int64_t> record(const report::RunReport& report, const std::string& path, std::ostream& out,
                                   std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  auto history = history::RunHistory::open(path);
  auto id = history ? history->record(report, report.report_dir) : tl::unexpected(history.error());
  if (!id) {
    err << fmt::format("tipc-run: warning: the run is not recorded in the run history: {}\n", id.error().str());
    return std::nullopt;
  }
  out << fmt::format("tipc-run: recorded as run {} in {}\n", *id, path);
  return *id;
}

}  // namespace

std::optional<std::string> history_path_for(const Options& options, const config::ProjectSettings& settings,
                                            const std::string& repo_root) {
  if (options.no_history) return std::nullopt;
  return history_path_of(options.history, settings, repo_root);
}

int record_and_compare(const std::optional<report::RunReport>& report, const Options& options,
                       const config::ProjectSettings& settings, const std::string& repo_root, std::ostream& out,
                       std::ostream& err) {
  const auto path = history_path_for(options, settings, repo_root);
  if (!report || report->interrupted || !report->finished) return kExitPassed;
  // The baseline is found before this run is recorded: `--baseline main` on main means the
  // run before this one.
  std::optional<RunReference> baseline;
  if (options.baseline) {
    auto loaded = resolve_run_reference(*options.baseline, path.value_or(default_history_path(repo_root)));
    if (loaded) baseline = std::move(*loaded);
    else err << fmt::format("tipc-run: warning: no baseline to compare with: {}\n", loaded.error().str());
  }
  const gate::GateRules rules = gate::rules_from_settings(settings.gates);
  if (const auto id = path ? record(*report, *path, out, err) : std::nullopt) {
    add_history_section(*report, *path, rules,
                        {id, baseline ? baseline->history_run : std::nullopt, baseline ? &baseline->snapshot : nullptr},
                        options.bundle, err);
  }
  if (!baseline) return kExitPassed;
  const gate::RunSnapshot current = gate::snapshot_of(*report, "this run");
  const gate::RunComparison comparison = gate::compare_runs(baseline->snapshot, current, rules);
  out << gate::console_comparison({baseline->snapshot.label, current.label}, gate::comparison_rows(comparison), false);
  return comparison.failed() ? kExitRegressed : kExitPassed;
}

int gated_exit_code(int run_code, int gate_code, std::ostream& out) {
  if (run_code != kExitPassed || gate_code == kExitPassed) return run_code;
  out << fmt::format("tipc-run: exit {}: the run passed, and regressed against its baseline (--baseline)\n", gate_code);
  return gate_code;
}

int bisect_exit_code(int exit_code) {
  constexpr int kBisectSkip = 125;
  switch (exit_code) {
    case kExitPassed: return kExitPassed;
    case kExitFailed:
    case kExitRegressed: return kExitFailed;
    case kExitInterrupted: return kExitInterrupted;
    default: return kBisectSkip;
  }
}

}  // namespace tipc::cli
