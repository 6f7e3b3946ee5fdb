#pragma once
// The end of a run and the run history: the finished run is recorded (unless --no-history
// or `history: false`), and with --baseline compared with the run it names. The history
// never decides a run's verdict: a locked, damaged or full database is a warning, and the
// reports are written before it is touched.
#include <optional>
#include <ostream>
#include <string>

#include "cli/options.h"
#include "config/project_settings.h"
#include "report/run_report.h"

namespace tipc::cli {

// The run history this run uses: --history, else the settings' history: (relative to the
// repository root), else the default; nullopt when there is none (--no-history, `history: false`).
std::optional<std::string> history_path_for(const Options& options, const config::ProjectSettings& settings,
                                            const std::string& repo_root);

// With --baseline, compares `report` (a finished run; an interrupted one is neither compared
// nor recorded) with the baseline and sets its `baseline` (the failing regressions, which fail
// its verdict), writing its reports again; then records it and renders its report.html again
// with the history section (report_trends.h). Says what it did on `out`, warnings on `err`.
// Returns kExitRegressed when the comparison found a failing regression, else kExitPassed.
int record_and_compare(std::optional<report::RunReport>& report, const Options& options,
                       const config::ProjectSettings& settings, const std::string& repo_root, std::ostream& out,
                       std::ostream& err);

// The run's exit code, or kExitRegressed when the run passed and its comparison with the
// baseline found a failing regression (the verdict says so where the semantics say a verdict;
// a last line says it either way).
int gated_exit_code(int run_code, int gate_code, std::ostream& out);

// A run's exit code as `git bisect run` reads it (--bisect): 0 good; 1 bad (a stage failed,
// or a failing regression); 125 skip, the commit could not be tested (nothing ran, a usage,
// config, settings or data step error); 130 (interrupted) stays, and stops the bisection.
int bisect_exit_code(int exit_code);

}  // namespace tipc::cli
