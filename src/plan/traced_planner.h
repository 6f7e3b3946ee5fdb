#pragma once
// Trace -> Plan: every program the repository's own runner started becomes a stage,
// exactly as traced (argv, cwd, environment, log, evaluated string, status line), with
// its kind from the config's script lines, its GPU needs from CUDA_VISIBLE_DEVICES and
// the launcher's arguments, and its dependencies from the paths the stages read and
// write. Pure: it reads no files and starts nothing.
#include <optional>
#include <string>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "plan/native_rules.h"
#include "plan/plan.h"
#include "plan/setup_stages.h"
#include "trace/trace.h"

namespace tipc::plan {

struct TracedPlanOptions {
  const PlanningRules* rules = &native_planning_rules();  // --compat: the reference's (no logical GPU ids added)
  std::string repo_root = ".";        // the absolute root as the trace's strings spell it ("." = none)
  std::optional<std::string> python;  // --python: replaces the config's interpreter
  // Per line of the trace's status log, the call whose exit status it reports
  // (status_sources of the status probes); empty when no probes ran.
  std::vector<std::optional<std::size_t>> status_sources;
  SetupStageOptions setup;                      // how the runner's housekeeping is replayed
  std::vector<dialect::ScriptKey> script_keys;  // the config's chain's: which script a call runs, so its kind
};

// An error when the config names a trainer, the mode trains and the runner started
// nothing (with the reason the config gives).
Result<Plan> plan_from_trace(const trace::Trace& trace, const config::TrainInferConfig& config,
                             const TracedPlanOptions& options);

}  // namespace tipc::plan
