#pragma once
// Where a repository's tipc-run files are, each rule once (issue 41 item 2): its root, and its
// settings file. A run finds the root from its config, a subcommand that runs nothing (compare,
// history, report) from the current directory, by the same walk.
#include <string>

namespace tipc {

// The repository root around `start` (a file or a directory): walking up from it, the parent
// of the first directory named test_tipc, or the first directory that holds a test_tipc/;
// the current directory when there is neither (a config outside any repository).
std::string repository_root(const std::string& start);

// <repo_root>/test_tipc/tipc-run.yaml: the settings a run reads unless --settings names others.
std::string default_settings_path(const std::string& repo_root);

}  // namespace tipc
