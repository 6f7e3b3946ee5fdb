#pragma once
// report.json read back into the report model, for a run known only by its reports (a
// bundle: `tipc-run history import`, `tipc-run compare BUNDLE`). It reads what the run
// history and a comparison take of a run: its times, tool version, repository root,
// environment and invalid configs, and per stage its identity, result and reason, deps,
// timing, earlier run, attempts, metrics, check values, GPU figures and GPU warnings (which
// decide whether its GPU figures are figures of the stage's own), so that verdict() and the
// figures (gate/figures.h) are those of the run that wrote it. Command lines, environment
// variables, log tails and histograms are not read: such a RunReport is for recording and
// comparing, not for rendering the reports again.
#include <string>
#include <string_view>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

// `file` names the source in errors (a bundle member: "out.tar.gz: reports/report.json").
// Not JSON, not a tipc-run report, a report_schema newer than this tipc-run's, or a field
// of the wrong type is an error naming the field ("plans[0].stages[2].result").
Result<RunReport> read_report_json(std::string_view text, const std::string& file);

}  // namespace tipc::report
