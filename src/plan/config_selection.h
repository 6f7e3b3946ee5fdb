#pragma once
// Which files of a run are its configs: the config given, or every config of a chain under
// a directory, less the ones --exclude and the settings' exclude: leave out. Each is read
// once, by the one config reader (config/config_text.h).
#include <string>
#include <vector>

#include "config/config_text.h"
#include "config/project_settings.h"
#include "core/error.h"
#include "dialect/chains.h"

namespace tipc::plan {

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

// The --exclude globs (`excludes`), then the settings' exclude: list.
std::vector<ConfigExclusion> config_exclusions(const std::vector<std::string>& excludes,
                                               const config::ProjectSettings& settings);

struct SelectedConfigs {
  bool directory = false;               // a directory was given (a suite), not one config
  std::vector<ConfigFile> files;        // as config_files, less the excluded ones
  std::vector<std::string> excluded;    // relative to the directory given, sorted
  std::vector<ConfigExclusion> unused;  // the globs that excluded no config
};

// config_files with `exclusions` applied to a directory's configs (an excluded file is not
// read). With `chains`, a directory's configs of every chain are taken, not only the
// train_params ones: each file whose header or name picks a chain (dialect/chains.h). An
// error when every config is excluded.
Result<SelectedConfigs> select_config_files(const std::string& argument, const std::vector<ConfigExclusion>& exclusions,
                                            const dialect::Chains* chains);

}  // namespace tipc::plan
