#pragma once
// Which runner of a repository plans a config (issue 15, issue 39): the runner file of the
// config's chain (configs/chains.yaml) in the nearest test_tipc/ directory above it, found
// by name or by what it is (dialect/runner_signature.h), and how the reference starts it;
// or none, when the chain's planner plans the config without it.
#include <optional>
#include <string>

#include "config/config_text.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "dialect/runner_signature.h"

namespace tipc::plan {

// How the reference starts a config's runner: `bash RUNNER CONFIG_ARG MODE` from RUN_DIR.
struct RunnerCall {
  std::string runner;      // relative to the repository root
  std::string run_dir;     // relative to the repository root: the directory holding the runner's directory
  std::string config_arg;  // the config, relative to run_dir
  // The config's chain (configs/chains.yaml): the one whose runner this is; under --runner
  // the one its header picks; nullptr without chains. Its script_keys give the stages' kinds.
  const dialect::Chain* chain = nullptr;
  // The dialects describe the config's lines (its chain in any MODE has planner: dialect): the
  // cross-check reads it natively too.
  bool dialect_describes = false;
};

// What decides a config's runner.
struct RunnerChoice {
  std::optional<std::string> runner_option;  // --runner: this runner, whatever the chain
  std::string mode;
  const dialect::Chains* chains = nullptr;  // nullptr: no runner is traced (the dialects plan every config)
  dialect::RunnerScripts* scripts =
      nullptr;  // the scripts read so far, shared by a run's configs; nullptr: read afresh
};

// --runner when given (an error when it is missing or outside the repository), else the
// runner of the config's chain (by its decoded header line) in its nearest test_tipc/
// directory: the first of the chain's runner files there, else the one script there that
// fits the chain's signature (an error naming them when several do). A config without a
// header gets the runner of the chain the dialects plan. Nullopt when the config's chain has
// none there but a planner (chains.yaml's `planner: dialect` or `native`); an error naming
// the reason when the chain cannot run here (its `unsupported`), no chain matches the
// config, or another chain's runner is missing.
Result<std::optional<RunnerCall>> find_runner(const config::ConfigText& config, const std::string& repo_root,
                                              const RunnerChoice& choice);

// The config's chain when its `planner:` is `native` (plan/chain_planner.h plans it without
// a runner); nullptr otherwise (the dialects plan a config of the chain whose planner is
// `dialect`).
const dialect::Chain* native_chain(const config::ConfigText& config, const RunnerChoice& choice);

}  // namespace tipc::plan
