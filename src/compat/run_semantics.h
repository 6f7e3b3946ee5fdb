#pragma once
// What `tipc-run run --compat` changes about a run, chosen in one place (run_semantics()),
// so that the run layer and the reporters never ask which semantics they follow:
// - the reference appends to its train logs (`cat >>`) instead of starting them afresh;
// - it starts a multi-node launcher command on the machine it runs on, where tipc-run's
//   local executor reports it UNSUPPORTED;
// - it prints no verdict and exits 0 whatever its stages did (D1 in docs/reference-runner.md); tipc-run still exits 2
//   for a config left out and 130 for an interrupt;
// - its results_python.log is its own (reference_status_log.h).
#include <memory>
#include <set>
#include <string>

#include "plan/plan.h"
#include "report/status_log.h"

namespace tipc::compat {

struct RunSemantics {
  std::set<plan::StageKind> appended_logs;  // run::SchedulerOptions::appended_logs
  bool multi_node_here = false;             // run::SchedulerOptions::multi_node_here
  // tipc-run prints its verdict line and exits with the verdict's code (run/run_verdict.h).
  bool says_verdict = true;
  std::unique_ptr<report::StatusLog> results_log;
};

// The reference runner's semantics when `reference` (--compat), else tipc-run's.
// `resume`: tipc-run's own results log continues the previous run's (the reference's always does).
RunSemantics run_semantics(bool reference, const std::string& repo_root, bool resume);

}  // namespace tipc::compat
