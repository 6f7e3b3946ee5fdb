#pragma once
// One config, or a directory of configs run as one suite on the same resources.
#include <ostream>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/project.h"
#include "plan/plan.h"

namespace tipc::cli {

// The config itself, or every train_params config under a directory (sorted).
Result<std::vector<std::string>> config_files(const std::string& argument);

// The configs of one run: the plans of the valid ones, and why the others are left out.
struct Suite {
  std::size_t configs = 0;           // every config given, valid or not
  std::vector<plan::Plan> plans;     // the valid configs', in file order
  std::vector<Diagnostic> problems;  // every problem of every invalid config (file, line, key)
  std::vector<std::string> invalid_files;
  std::size_t traced = 0;            // configs planned by tracing their runner (the others natively)
  std::vector<std::string> runners;  // the runners traced, relative to the repository root

  std::vector<std::string> valid_files() const;  // the planned configs, as given
};

// Plans every config. An invalid config is left out with all its problems and the others
// are still planned: one upstream file that does not conform must not stop a folder. An
// error only for what spoils every config: an unknown MODE, a settings problem.
Result<Suite> plan_configs(const std::vector<std::string>& files, const Project& project, const Options& options);

// Who planned the suite: "tipc-run: dialect NAME (SOURCE)" when the dialect planned a config
// or is sure of itself (it cross-checks the traced ones), and "tipc-run: 3 configs planned by
// tracing the repository's runner: test_tipc/...sh" when runners planned any.
void print_planners(const Suite& suite, const Project& project, std::ostream& out, std::ostream& warnings);

// One "tipc-run: error: FILE:LINE: ..." line per problem, then invalid_configs_summary.
void print_invalid_configs(const Suite& suite, std::ostream& out);

// "tipc-run: 1 of 3 configs invalid, left out: FILE" when a folder had invalid configs; "" otherwise.
std::string invalid_configs_summary(const Suite& suite);

// A run with an invalid config never exits 0: 2 (a config error) when every stage that ran
// passed; a failed stage's 1 and an interrupt's 130 stay, they say more.
int suite_exit_code(const Suite& suite, int run_exit_code);

}  // namespace tipc::cli
