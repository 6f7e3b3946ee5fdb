#pragma once
// Where tipc-run's files are, each rule once (issue 41 item 2): a repository's root and its
// settings file (a run finds the root from its config, a subcommand that runs nothing, such as
// compare, history or report, from the current directory, by the same walk), and the caches
// kept between runs.
#include <string>
#include <string_view>

namespace tipc {

// The output tree, relative to the repository root: each plan's directory lies below it
// (test_tipc/output/MODEL/MODE), the run history and the reports beside them.
inline constexpr std::string_view kOutputTree = "test_tipc/output";

// The run history's default file, relative to the repository root (history/history_location.h).
inline constexpr std::string_view kHistoryFile = "test_tipc/output/.tipc-history.sqlite";

// The repository root around `start` (a file or a directory): walking up from it, the parent
// of the first directory named test_tipc, or the first directory that holds a test_tipc/;
// the current directory when there is neither (a config outside any repository).
std::string repository_root(const std::string& start);

// <repo_root>/test_tipc/tipc-run.yaml: the settings a run reads unless --settings names others.
std::string default_settings_path(const std::string& repo_root);

// This binary's own directory (/proc/self/exe's); "" when it cannot be read.
std::string binary_directory();

// Where install() puts tipc-run's data (dialects/, launchers.yaml, chains.yaml: by default
// <prefix>/share/tipc-run), relative to this binary as CMake configured it.
std::string installed_data_directory();

// A helper program installed for this binary (by default <prefix>/libexec/tipc-run/NAME).
std::string installed_helper(const std::string& name);

// The source tree's configs/, which a binary run from its build directory reads.
std::string source_configs_directory();

// A cache kept between runs, the one rule for every cache: $`variable` when it is set (set and
// empty turns the cache off), else $XDG_CACHE_HOME/tipc-run/`name`, else
// $HOME/.cache/tipc-run/`name`; "" (nothing kept between runs) when neither is set.
std::string cache_directory(const char* variable, const std::string& name);

// The traces of runners (trace/trace_cache.h): $TIPC_TRACE_CACHE, else .../tipc-run/traces.
std::string trace_cache_directory();

// What runners download (data/download_cache.h): $TIPC_DOWNLOAD_CACHE, else .../tipc-run/downloads.
std::string download_cache_directory();

}  // namespace tipc
