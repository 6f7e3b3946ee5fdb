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

std::optional<std::string> history_path_of(const std::optional<std::string>& history_option,
                                           const config::ProjectSettings& settings, const std::string& repo_root) {
  if (history_option) return history_option;
  if (settings.history) {
    if (settings.history->empty()) return std::nullopt;
    return (fs::path(repo_root) / *settings.history).string();
  }
  return default_history_path(repo_root);
}

Result<RepositoryHere> repository_here(const std::optional<std::string>& settings_file) {
  std::error_code ec;
  RepositoryHere here{repository_around(fs::current_path(ec).string()), {}};
  const std::string found = (fs::path(here.root) / "test_tipc/tipc-run.yaml").string();
  if (settings_file || fs::exists(found, ec)) here.settings = TRY(config::load_project_settings(settings_file.value_or(found)));
  return here;
}

std::string history_to_read(const std::optional<std::string>& history_option, const RepositoryHere& repository) {
  return history_path_of(history_option, repository.settings, repository.root)
      .value_or(default_history_path(repository.root));
}

}  // namespace tipc::cli
