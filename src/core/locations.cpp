#include "core/locations.h"

#include <cstdlib>
#include <filesystem>

#include "core/install_layout.h"

namespace tipc {
namespace fs = std::filesystem;

std::string repository_root(const std::string& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (dir.filename() == "test_tipc") return dir.parent_path().string();
    if (fs::is_directory(dir / "test_tipc", ec)) return dir.string();
    if (dir == dir.root_path()) break;
  }
  return fs::current_path(ec).string();
}

std::string default_settings_path(const std::string& repo_root) {
  return (fs::path(repo_root) / "test_tipc/tipc-run.yaml").string();
}

std::string binary_directory() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : self.parent_path().string();
}

std::string installed_data_directory() {
  return (fs::path(binary_directory()) / install_layout::kDataFromBinary).lexically_normal().string();
}

std::string installed_helper(const std::string& name) {
  return (fs::path(binary_directory()) / install_layout::kHelpersFromBinary / name).lexically_normal().string();
}

std::string source_configs_directory() { return install_layout::kSourceConfigs; }

std::string cache_directory(const char* variable, const std::string& name) {
  if (const char* chosen = std::getenv(variable)) return chosen;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/tipc-run/" + name;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/tipc-run/" + name;
  return "";
}

std::string trace_cache_directory() { return cache_directory("TIPC_TRACE_CACHE", "traces"); }

std::string download_cache_directory() { return cache_directory("TIPC_DOWNLOAD_CACHE", "downloads"); }

}  // namespace tipc
