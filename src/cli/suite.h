#pragma once
// One config, or a directory of configs run as one suite on the same resources.
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/plan_from.h"
#include "cli/project.h"
#include "config/config_text.h"
#include "config/project_settings.h"
#include "dialect/chains.h"
#include "plan/config_selection.h"
#include "plan/native_rules.h"
#include "plan/plan.h"
#include "plan/plan_file_record.h"
#include "run/run_verdict.h"

namespace tipc::cli {

// "tipc-run: 4 configs excluded: a.txt, b/c.txt" on `out`, and a warning on
// `warnings` naming each glob that excluded nothing.
void print_exclusions(const plan::SelectedConfigs& selected, std::ostream& out, std::ostream& warnings);

// What planning a suite takes from the command line, filled once from the options
// (by the run pipeline, cli/run_pipeline).
struct SuiteRequest {
  std::vector<std::string> modes;  // the MODEs as given; a directory suite plans each in turn
  std::string mode;                // the MODE planned now (the first of `modes` until then)
  const plan::PlanningRules* rules = &plan::native_planning_rules();  // the reference's under --compat
  std::optional<std::string> python;                                  // --python: the interpreter of every stage
  PlanFrom plan_from = PlanFrom::kAuto;
  std::optional<std::string> runner;  // --runner: the runner script to trace
  bool strict = false;                // the traced plans' cross-check warnings are errors
  std::optional<int> jobs;            // traces at once (-j); default: the core count
  bool offline = false;               // a traced runner's downloads must be in the download cache
};

// The configs of one run: the plans of the valid ones, and why the others are left out.
struct Suite {
  std::size_t configs = 0;           // every config given, valid or not
  std::vector<plan::Plan> plans;     // the valid configs', in file order
  std::vector<Diagnostic> problems;  // every problem of every invalid config (file, line, key)
  std::vector<std::string> invalid_files;
  std::size_t traced = 0;            // configs planned by tracing their runner (the others natively)
  std::vector<std::string> runners;  // the runners traced, relative to the repository root
  // Plans moved to a directory of their own because another config shares their output
  // directory (plan/output_separation.h).
  std::size_t separated = 0;
  std::vector<std::string> excluded;  // configs --exclude (or the settings' exclude:) left out, not given
  std::vector<plan::ConfigInOtherModes>
      in_other_modes;  // a directory's configs in none of the MODEs (cli/suite_modes.h)

  run::ConfigCount config_count() const;  // given, and left out as invalid (the verdict's)
};

// Plans every config. An invalid config is left out with all its problems and the others
// are still planned: one upstream file that does not conform must not stop a folder. An
// error only for what spoils every config: an unknown MODE, a settings problem.
Result<Suite> plan_configs(const std::vector<plan::ConfigFile>& files, const Project& project,
                           const SuiteRequest& given);

// plan_configs in two steps, for a suite of several MODEs (cli/suite_modes.h): the plans of
// `files` in given.mode, then the steps over the whole suite (outputs shared between
// configs separated, alignment stages, the order of stages writing one file, plans that
// clash left out as invalid).
Result<Suite> plan_mode_configs(const std::vector<plan::ConfigFile>& files, const Project& project,
                                const SuiteRequest& given);
Result<void> finish_suite(Suite& suite, const Project& project, const SuiteRequest& given);

// Who planned the suite: "tipc-run: dialect NAME (SOURCE)" when the dialect planned a config
// or is sure of itself (it cross-checks the traced ones), and "tipc-run: 3 configs planned by
// tracing the repository's runner: test_tipc/...sh" when runners planned any.
void print_planners(const Suite& suite, const Project& project, std::ostream& out, std::ostream& warnings);

// One "tipc-run: error: FILE:LINE: ..." line per problem, then the line that counts the
// invalid configs of a folder (before the run: the excluded ones and those in none of the
// MODEs have had their own lines).
void print_invalid_configs(const Suite& suite, std::ostream& out);

// "tipc-run: 1 of 3 configs invalid, left out: FILE" when a folder had invalid configs, and
// "tipc-run: 4 configs excluded", "tipc-run: 3 configs in none of the MODEs" when it had
// such; "" otherwise. The recap after the run.
std::string invalid_configs_summary(const Suite& suite);

}  // namespace tipc::cli
