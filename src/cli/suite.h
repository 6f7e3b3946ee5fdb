#pragma once
// One config, or a directory of configs run as one suite on the same resources.
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/project.h"
#include "plan/plan.h"

namespace tipc::cli {

// The config itself, or every train_params config under a directory (sorted).
Result<std::vector<std::string>> config_files(const std::string& argument);

// Plans every config; all problems of all configs are reported together.
Result<std::vector<plan::Plan>> plan_configs(const std::vector<std::string>& files, const Project& project,
                                             const Options& options);

// Keeps the stages --only and -k select (dependencies on dropped stages are dropped too).
// A selection that keeps no stage at all is an error: a CI job would pass on nothing.
Result<void> select_stages(std::vector<plan::Plan>& plans, const std::vector<std::string>& kinds,
                           const std::string& pattern);

}  // namespace tipc::cli
