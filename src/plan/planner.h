#pragma once
// The pure planner: (config, dialect, mode, options) -> plan. It reads no files
// and starts nothing; the reference runner's behaviour is reproduced from data.
#include <optional>
#include <string>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"
#include "plan/native_rules.h"
#include "plan/plan.h"

namespace tipc::plan {

struct PlanOptions {
  std::string mode;
  // Where tipc-run and the reference plan differently (--compat: compat::planning_rules).
  const PlanningRules* rules = &native_planning_rules();
  std::string repo_root = ".";        // text of the absolute root where a dialect needs it (Clas LOG)
  std::string run_dir = ".";          // where the runner is started, relative to the repository root
  std::optional<std::string> python;  // --python: replaces the config's interpreter
  std::optional<std::string> gpu_id;  // the reference's optional 3rd argument (whole-inference)
  std::optional<std::string> initial_cuda_visible_devices;  // the inherited value (the reference's rules start from it)
  std::optional<dialect::Launcher> launcher;                // replaces the dialect's default launcher
  int cpu_train_processes = 1;  // a CPU (-1) train runs as this many ranks when the launcher spawns ranks
};

Result<Plan> make_plan(const config::TrainInferConfig& config, const dialect::Dialect& dialect,
                       const PlanOptions& options);

}  // namespace tipc::plan
