#pragma once
#include <string>

namespace tipc::cli {

// The reference runner is started from the directory that contains test_tipc/;
// find it by walking up from the config file. Falls back to the current directory.
std::string find_repo_root(const std::string& config_path);

}  // namespace tipc::cli
