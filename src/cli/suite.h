#pragma once
// One config, or a directory of configs run as one suite on the same resources.
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/project.h"
#include "config/project_settings.h"
#include "config/config_text.h"
#include "dialect/chains.h"
#include "plan/plan.h"
#include "plan/plan_file_record.h"
#include "run/run_verdict.h"

namespace tipc::cli {

// A config of the run, read once by the one config reader (config/config_text.h): chain
// detection and every planner take `text`, never the file. A file that cannot be read is
// the config's own problem (`text` holds why), not the suite's.
struct ConfigFile {
  std::string path;
  Result<config::ConfigText> text;
};

// The config itself, or every config of a chain under a directory (sorted), each read once;
// in a directory also each non-empty *.txt that cannot be read as a config at all.
Result<std::vector<ConfigFile>> config_files(const std::string& argument, const dialect::Chains& chains);

// A glob that leaves configs out of a directory suite: --exclude, or the settings' exclude:.
// It matches a config's path relative to the directory given (`*` also matches `/`), or,
// when it holds no `/`, also its file name at any depth (`placeholder_*.txt`).
struct ConfigExclusion {
  std::string glob;
  std::string source;  // "--exclude", "test_tipc/tipc-run.yaml:4"
};

// The --exclude globs, then the settings' exclude: list.
std::vector<ConfigExclusion> config_exclusions(const Options& options, const config::ProjectSettings& settings);

struct SelectedConfigs {
  bool directory = false;                  // a directory was given (a suite), not one config
  std::vector<ConfigFile> files;           // as config_files, less the excluded ones
  std::vector<std::string> excluded;       // relative to the directory given, sorted
  std::vector<ConfigExclusion> unused;     // the globs that excluded no config
};

// config_files with `exclusions` applied to a directory's configs (an excluded file is not
// read). With `chains`, a directory's configs of every chain are taken, not only the
// train_params ones: each file whose header or name picks a chain (dialect/chains.h). An
// error when every config is excluded.
Result<SelectedConfigs> select_config_files(const std::string& argument, const std::vector<ConfigExclusion>& exclusions,
                                            const dialect::Chains* chains);

// "tipc-run: 4 configs excluded: a.txt, b/c.txt" on `out`, and a warning on
// `warnings` naming each glob that excluded nothing.
void print_exclusions(const SelectedConfigs& selected, std::ostream& out, std::ostream& warnings);

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
  std::vector<plan::ConfigInOtherModes> in_other_modes;  // a directory's configs in none of the MODEs (cli/suite_modes.h)

  run::ConfigCount config_count() const;         // given, and left out as invalid (the verdict's)
};

// Plans every config. An invalid config is left out with all its problems and the others
// are still planned: one upstream file that does not conform must not stop a folder. An
// error only for what spoils every config: an unknown MODE, a settings problem.
Result<Suite> plan_configs(const std::vector<ConfigFile>& files, const Project& project, const Options& options);

// plan_configs in two steps, for a suite of several MODEs (cli/suite_modes.h): the plans of
// `files` in options.mode, then the steps over the whole suite (outputs shared between
// configs separated, alignment stages, the order of stages writing one file, plans that
// clash left out as invalid).
Result<Suite> plan_mode_configs(const std::vector<ConfigFile>& files, const Project& project, const Options& options);
Result<void> finish_suite(Suite& suite, const Project& project, const Options& options);

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
