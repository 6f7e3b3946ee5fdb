#include "cli/history_location.h"

#include <filesystem>

namespace tipc::cli {
namespace fs = std::filesystem;

std::string repository_around(const std::string& directory) {
  std::error_code ec;
  const fs::path start = fs::absolute(directory, ec);
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    if (dir.filename() == "test_tipc") return dir.parent_path().string();
    if (fs::is_directory(dir / "test_tipc", ec)) return dir.string();
    if (dir == dir.root_path()) break;
  }
  return start.string();
}

std::string default_history_path(const std::string& repo_root) {
  std::error_code ec;
  const std::string root = repo_root.empty() ? repository_around(fs::current_path(ec).string()) : repo_root;
  return (fs::path(root) / kHistoryFile).string();
}

}  // namespace tipc::cli
