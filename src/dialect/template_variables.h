#pragma once
// The `{name}` variables of a dialect's templates (commands, logs, paths, status line). The
// planner fills them (src/plan/planner.cpp, and plan.cpp for the status line); this is the one
// list of their names, checked against every template when a dialect loads, so that a typo in
// a dialect file is an error naming its line and key, not a failure of the first config that
// reaches the template. docs/config-format.md, "Template variables", describes each.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tipc::dialect {

// Whether the planner fills `name`: one of the list, or a line variable key_N, value_N, set_N.
bool is_planner_variable(std::string_view name);

// The names between braces in `text`, in order; nullopt when a '{' is not closed.
std::optional<std::vector<std::string>> template_variable_names(std::string_view text);

// The inference loops a dialect may name (each iterates one line of the config).
bool is_inference_loop(std::string_view name);

}  // namespace tipc::dialect
