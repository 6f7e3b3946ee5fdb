#pragma once
// The front half of every run: config file -> checked config -> plan.
#include <string>

#include "core/error.h"
#include "dialect/dialect.h"
#include "plan/planner.h"

namespace tipc::plan {

// An error naming the dialect's known modes when `mode` is not one of them.
Result<void> check_mode(const dialect::Dialect& dialect, const std::string& mode);

// Reads, splits and (outside compat mode) validates the config, then plans it.
// Default mode rejects a shifted layout (anchors) and an unknown MODE; compat
// accepts whatever the reference accepts.
Result<Plan> plan_file(const std::string& config_path, const dialect::Dialect& dialect, const PlanOptions& options);

}  // namespace tipc::plan
