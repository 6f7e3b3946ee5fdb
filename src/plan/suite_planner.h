#pragma once
// Who plans each config of a MODE, and the plans (issue 39, item 4): a config whose chain's
// runner is beside it is traced (several at once, through the trace cache) and planned from
// the trace, with the cross-check's findings on the config; one without goes to its chain's
// planner (the native dialect, or the chain's own, plan/chain_planner.h). Everything it needs
// comes in one plain request: no command line, no settings file.
#include <optional>
#include <string>
#include <vector>

#include "config/config_text.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "dialect/dialect.h"
#include "plan/plan.h"
#include "plan/planner.h"
#include "plan/setup_stages.h"
#include "trace/passed_env.h"

namespace tipc::plan {

// Where the plans come from (--plan-from).
enum class PlanSource {
  kAuto,     // the runner of the config's chain when it is beside the config, else the chain's planner
  kRunner,   // the runner only: a config without one is an error
  kDialect,  // the native dialect only, no runner traced
};

// How runners are traced.
struct TraceSettings {
  trace::PassedEnvironment passed_env;  // what every traced runner is started with
  std::string cache_dir;                // where traces are kept by their inputs' digest; "" = no cache
  int jobs = 1;                         // traces at once
  SetupStageOptions setup;              // how a runner's housekeeping is replayed
};

// Everything planning one MODE's configs takes.
struct SuitePlanRequest {
  PlanOptions options;  // the MODE, the rules (--compat), the repository root, --python, the launcher...
  PlanSource source = PlanSource::kAuto;
  std::optional<std::string> runner;          // --runner: this runner for every config
  const dialect::Chains* chains = nullptr;    // nullptr: no runner is traced
  const dialect::Dialect* dialect = nullptr;  // the repository's; nullptr when none applies
  std::optional<Error> dialect_error;         // why none applies: a config that needs it gets this error
  bool dialect_sure = false;                  // chosen without doubt: traced configs are cross-checked against it
  bool strict = false;                        // --strict: a cross-check finding is the config's error
  TraceSettings trace;
};

// The plans of a MODE's configs, one per config in their order, and how they were made.
struct PlannedConfigs {
  std::vector<Result<Plan>> plans;
  std::vector<bool> traced;          // per config: planned from its runner's trace
  std::vector<std::string> runners;  // the runners traced, each once, in the order first met
};

PlannedConfigs plan_configs(const std::vector<const config::ConfigText*>& configs, const SuitePlanRequest& request);

}  // namespace tipc::plan
