#pragma once
// Where the run history lives unless --history or the settings say otherwise: beside the
// outputs of the repository's runs, test_tipc/output/.tipc-history.sqlite.
#include <string>

namespace tipc::cli {

inline constexpr const char* kHistoryFile = "test_tipc/output/.tipc-history.sqlite";

// `repo_root`/test_tipc/output/.tipc-history.sqlite; "" = the repository around the current directory.
std::string default_history_path(const std::string& repo_root = "");

// The nearest directory at or above `directory` that holds test_tipc/ (or is inside it);
// `directory` itself when there is none.
std::string repository_around(const std::string& directory);

}  // namespace tipc::cli
