#pragma once
// The end of a run and the run history: the finished run is recorded (unless --no-history
// or `history: false`), and with --baseline compared with the run it names. The history
// never decides a run's verdict: a locked, damaged or full database is a warning, and the
// reports are written before it is touched.
#include <optional>
#include <ostream>
#include <string>

#include "config/project_settings.h"
#include "report/run_report.h"

namespace tipc::history {

// What the command line says of the history at the end of a run.
struct RecordingRequest {
  std::optional<std::string> history;   // --history FILE
  bool no_history = false;              // --no-history
  std::optional<std::string> baseline;  // --baseline REF
  std::optional<std::string> bundle;    // --bundle FILE.tar.gz, written again with the comparison
};

// The run history this run uses: --history (`request.history`), else the settings' history: (relative to the
// repository root), else the default; nullopt when there is none (--no-history, `history: false`).
std::optional<std::string> history_path_for(const RecordingRequest& request, const config::ProjectSettings& settings,
                                            const std::string& repo_root);

// With --baseline, compares `report` (a finished run; an interrupted one is neither compared
// nor recorded) with the baseline and sets its `baseline` (the failing regressions, which fail
// its verdict), writing its reports again; then records it and renders its report.html again
// with the history section (report_trends.h). Says what it did on `out`, warnings on `err`.
// Returns kExitRegressed when the comparison found a failing regression, else kExitPassed.
int record_and_compare(std::optional<report::RunReport>& report, const RecordingRequest& request,
                       const config::ProjectSettings& settings, const std::string& repo_root, std::ostream& out,
                       std::ostream& err);

}  // namespace tipc::history
