#include "history/history_location.h"

#include <filesystem>

#include "core/locations.h"

namespace tipc::history {
namespace fs = std::filesystem;

std::string default_history_path(const std::string& repo_root) {
  std::error_code ec;
  const std::string root = repo_root.empty() ? repository_root(fs::current_path(ec).string()) : repo_root;
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
  RepositoryHere here{repository_root(fs::current_path(ec).string()), {}};
  const std::string found = default_settings_path(here.root);
  if (settings_file || fs::exists(found, ec))
    here.settings = TRY(config::load_project_settings(settings_file.value_or(found)));
  return here;
}

std::string history_to_read(const std::optional<std::string>& history_option, const RepositoryHere& repository) {
  return history_path_of(history_option, repository.settings, repository.root)
      .value_or(default_history_path(repository.root));
}

}  // namespace tipc::history
