#pragma once
// Plans traced from the repository's own runner (issue 15): which runner accompanies a
// config, how the reference starts it, and the plans from tracing it (trace/tracer.h,
// plan/traced_planner.h), each with the cross-check's findings on the config.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.h"
#include "cli/project.h"
#include "core/error.h"
#include "plan/plan.h"

namespace tipc::cli {

// How the reference starts a config's runner: `bash RUNNER CONFIG_ARG MODE` from RUN_DIR.
struct RunnerCall {
  std::string runner;      // relative to the repository root
  std::string run_dir;     // relative to the repository root: the directory holding the runner's directory
  std::string config_arg;  // the config, relative to run_dir
};

// The runner file name the reference uses for the train/inference chain.
inline constexpr const char* kRunnerFileName = "test_train_inference_python.sh";

// --runner when given (an error when it is missing or outside the repository), else the
// runner in the config's nearest test_tipc/ directory; nullopt when there is none.
Result<std::optional<RunnerCall>> find_runner(const std::string& config_file, const std::string& repo_root,
                                               const std::optional<std::string>& runner_option);

// Traces every config's runner, several at once and through the trace cache, and plans
// from the traces. Each result is the config's plan (the cross-check's findings among its
// warnings) or why it has none (a runner that failed, a --strict finding).
std::vector<Result<plan::Plan>> plan_from_runners(const std::vector<std::pair<std::string, RunnerCall>>& configs,
                                                  const Project& project, const Options& options);

}  // namespace tipc::cli
