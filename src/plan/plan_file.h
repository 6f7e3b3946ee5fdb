#pragma once
// The front half of every run: the config's text (read once, config/config_text.h) ->
// checked config -> plan.
#include <string>

#include "config/config_text.h"
#include "core/error.h"
#include "dialect/dialect.h"
#include "plan/planner.h"

namespace tipc::plan {

// An error naming the dialect's known modes when `mode` is not one of them.
Result<void> check_mode(const dialect::Dialect& dialect, const std::string& mode);

// Splits the config and, where the planning rules check configs (PlanningRules::checks_config),
// validates it, then plans it: a shifted layout (anchors), an unknown MODE and the lints'
// errors (plan/config_lint.h) are rejected; the reference's rules accept whatever it accepts.
Result<Plan> plan_config(const config::ConfigText& text, const dialect::Dialect& dialect, const PlanOptions& options);

}  // namespace tipc::plan
