#include "cli/repo_root.h"

#include <filesystem>

namespace tipc::cli {
namespace fs = std::filesystem;

std::string find_repo_root(const std::string& config_path) {
  std::error_code ec;
  fs::path dir = fs::absolute(config_path, ec).parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (dir.filename() == "test_tipc") return dir.parent_path().string();
    if (dir == dir.root_path()) break;
  }
  return fs::current_path(ec).string();
}

}  // namespace tipc::cli
