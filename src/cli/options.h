#pragma once
// Command-line options of `tipc-run CONFIG MODE ...`, parsed once into a struct.
#include <optional>
#include <string>
#include <vector>

#include "cli/plan_from.h"
#include "config/project_settings.h"
#include "core/error.h"
#include "plan/native_rules.h"
#include "plan/stage_selection.h"

namespace tipc::cli {

struct Options {
  std::string config;
  std::string mode;  // the first of `modes`: the MODE of a run of one MODE
  std::vector<std::string>
      modes;  // MODE as given: one, or a comma list (a suite runs each config in each its chain takes)
  bool dry_run = false;
  std::string format = "text";  // text | jsonl
  bool compat = false;
  // How configs are planned: the reference's rules under --compat (set by parse_options).
  const plan::PlanningRules* rules = &plan::native_planning_rules();
  std::optional<std::string> dialect;
  PlanFrom plan_from = PlanFrom::kAuto;
  std::optional<std::string> runner;  // --runner PATH: the runner script to trace
  std::optional<std::string> python;
  std::vector<std::string> trace_env;  // --trace-env NAME[=VALUE]: passed into the trace (cli/trace_environment.h)
  std::optional<std::string> dialect_dir;
  std::optional<std::string> repo_root;
  std::optional<std::string> launcher;
  std::optional<std::string> settings;  // default: <repo>/test_tipc/tipc-run.yaml when present
  std::optional<int> jobs;
  std::optional<std::string> gpus;
  std::optional<std::string> resource_spec;
  std::optional<double> timeout;
  std::optional<double> idle_timeout;  // --idle-timeout S: no output for S s is a TIMEOUT
  std::optional<int> expect_gpus;      // --expect-gpus N: fewer usable GPUs is exit 2 before any stage
  bool strict = false;
  bool offline = false;               // setup stages download nothing (only from the download cache)
  bool allow_nothing = false;         // a run in which no stage ran exits 0 (else 1)
  bool no_wait = false;               // an output directory in use by another run: exit 2 at once
  std::vector<StageKind> only;        // --only: stage kinds
  std::vector<std::string> patterns;  // -k, each an expression (plan/stage_selection.h); any selects
  std::vector<std::string> excludes;  // --exclude GLOB: configs left out of a directory suite (cli/suite.h)
  std::optional<plan::Shard> shard;   // --shard K/N: this shard's configs only
  int retries = 0;                    // --retries N: a FAIL or TIMEOUT runs again up to N times (FLAKY)
  bool fail_fast = false;             // -x: no stage starts after the first failure
  bool resume = false;
  bool prepare_script = false;
  std::optional<std::string> bundle;     // --bundle FILE.tar.gz: the acceptance bundle
  std::optional<std::string> history;    // --history FILE: the run history (default: settings, else test_tipc/output/)
  bool no_history = false;               // --no-history: the run is not recorded
  std::optional<std::string> baseline;   // --baseline REF: compared with this run at its end (tipc-run compare)
  bool bisect = false;                   // --bisect: exit codes for `git bisect run` (cli/run_exit_code.h)
  std::string executor = "local";        // --executor NAME: a registered executor (run/executor_registry.h)
  std::optional<std::string> partition;  // slurm; default: settings, else the cluster's default
  std::optional<std::string> account;    // slurm
  bool quiet = false;                    // -q: the console prints the failures, their recap and the verdict
  bool verbose = false;                  // the scheduler's decisions on stderr
};

// Parses argv. Returns an Error with exit code 0 for --help/--version (the text is
// the message), exit code 2 for usage errors.
Result<Options> parse_options(int argc, const char* const* argv);

// `options` with the settings' `modes:` when the command line named no MODE; an error when
// neither did.
Result<Options> with_settings_modes(Options options, const config::ProjectSettings& settings);

}  // namespace tipc::cli
