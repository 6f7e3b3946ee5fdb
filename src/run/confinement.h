#pragma once
// Default mode keeps what a project's files name inside the repository; --compat, as the
// reference, takes them as they are (the callers ask PlanningRules::checks_config). Checked
// when the configs are planned, so --dry-run fails on them too (docs/cli.md#confinement).
#include <optional>
#include <string>

#include "config/config_text.h"
#include "core/error.h"
#include "plan/plan.h"

namespace tipc::run {

// A config whose model_name is absolute or holds a ".." component (core/confined_path.h):
// it names the plan's directory in the output tree, test_tipc/output/{model_name}/{mode}.
// At the model_name line; checked before the config is planned or its runner traced.
std::optional<Diagnostic> unconfined_model_name(const config::ConfigText& text);

// A plan whose output directory (run::plan_output_path) lies outside the repository, at the
// config's model_name line: whatever the dialect's template or the traced runner made of it.
std::optional<Diagnostic> output_outside_repository(const plan::Plan& plan, const config::ConfigText& text,
                                                    const std::string& repo_root);

}  // namespace tipc::run
