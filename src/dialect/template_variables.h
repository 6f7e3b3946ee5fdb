#pragma once
// The `{name}` variables of a dialect's templates (commands, logs, paths, status line). The
// planner fills them (src/plan/planner.cpp, and plan.cpp for the status line); this is the one
// list of their names, checked against every template when a dialect loads, so that a typo in
// a dialect file is an error naming its line and key, not a failure of the first config that
// reaches the template. docs/config-format.md, "Template slots and variables", describes each.
//
// Each name says what the variable holds. Dialect files written before the variables had
// such names (`{ug}`, `{thr}`, `{iex2}`, ...) still load: the loader writes each old name as
// its current one, so the planner sees the current names only, and warns once per file.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tipc::dialect {

// Whether the planner fills `name`: one of the list, or a line variable key_N, value_N, arg_N.
bool is_planner_variable(std::string_view name);

// The current name of a variable that dialect files once called `old_name` (`ug` gives
// `infer_use_gpu`, `set_12` gives `arg_12`); nullopt when `old_name` is no old name.
std::optional<std::string> current_variable_name(std::string_view old_name);

// One old name written as its current name.
struct VariableRename {
  std::string old_name;
  std::string new_name;
};

// `text` with every `{old name}` written with its current name, and the renames made, in
// order. A '{' that is not closed ends the rewriting (template_variable_names reports it).
std::pair<std::string, std::vector<VariableRename>> with_current_variable_names(std::string_view text);

// The names between braces in `text`, in order; nullopt when a '{' is not closed.
std::optional<std::vector<std::string>> template_variable_names(std::string_view text);

}  // namespace tipc::dialect
