#pragma once
// Everything a run needs to know about the repository it runs in: its root, its
// tipc-run settings, its dialect and launcher.
#include <optional>
#include <ostream>
#include <string>

#include <vector>
#include "config/project_settings.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "dialect/dialect.h"
#include "dialect/dialect_detection.h"
#include "trace/passed_env.h"

namespace tipc::cli {

// What finding the project takes from the command line.
struct ProjectRequest {
  std::string config;                      // the config or directory given
  std::optional<std::string> repo_root;    // --repo-root, else the root around `config`
  std::optional<std::string> settings;     // --settings, else <root>/test_tipc/tipc-run.yaml when present
  std::optional<std::string> dialect;      // --dialect
  std::optional<std::string> dialect_dir;  // --dialect-dir
  std::optional<std::string> launcher;     // --launcher
  std::vector<std::string> trace_env;      // --trace-env NAME[=VALUE] (cli/trace_environment.h)
  bool dialect_required = false;           // --plan-from dialect: no dialect is an error
};

struct Project {
  std::string root;  // absolute
  config::ProjectSettings settings;
  dialect::Dialect dialect;
  dialect::DialectChoice dialect_choice;  // its name and how it was chosen, for the console and reports
  // Why no dialect applies, when none does and the configs' runners may still plan them
  // (--plan-from auto or runner); a config that needs the dialect gets this error.
  std::optional<Error> dialect_error;
  std::optional<dialect::Launcher> launcher;
  // configs/chains.yaml (load_chains_for), read once for the run: each config's chain, its
  // runner and planner; nullopt when no chains.yaml is found.
  std::optional<dialect::Chains> chains;
  // Passed into every trace of a runner (cli/trace_environment.h: settings, then --trace-env).
  trace::PassedEnvironment trace_env;
};

// chains.yaml beside the dialect directory (--dialect-dir, else the default one); for a
// dialect directory of one's own without one, the chains.yaml tipc-run ships; nullopt when
// there is none at all.
Result<std::optional<dialect::Chains>> load_chains_for(const std::optional<std::string>& dialect_dir);

// --dialect, else the settings' dialect, else detected from the root's markers
// (dialect::detect_dialect: an error when none decides, unless runners may plan: then
// Project::dialect_error).
Result<Project> load_project(const ProjectRequest& request);

// "tipc-run: dialect NAME (SOURCE)" on `out`; a doubt about a detection as a warning on `warnings`.
void print_dialect_choice(const dialect::DialectChoice& choice, std::ostream& out, std::ostream& warnings);

}  // namespace tipc::cli
