#pragma once
// Where the run history lives: --history, else the settings' `history:`, else beside the
// outputs of the repository's runs, test_tipc/output/.tipc-history.sqlite. A run
// (history_path_for) and the subcommands that read or import runs (compare, history) resolve
// it alike.
#include <optional>
#include <string>

#include "config/project_settings.h"
#include "core/error.h"
#include "core/locations.h"

namespace tipc::history {

// `repo_root`/test_tipc/output/.tipc-history.sqlite; "" = the repository around the current directory.
std::string default_history_path(const std::string& repo_root = "");

// `history_option` (--history), else the settings' history: (relative to `repo_root`), else
// the default; nullopt when the settings turn it off (`history: false`).
std::optional<std::string> history_path_of(const std::optional<std::string>& history_option,
                                           const config::ProjectSettings& settings, const std::string& repo_root);

// The repository around the current directory, for a subcommand that runs nothing: its root
// and its settings (`settings_file`, else its test_tipc/tipc-run.yaml when present, else none).
struct RepositoryHere {
  std::string root;
  config::ProjectSettings settings;
};
Result<RepositoryHere> repository_here(const std::optional<std::string>& settings_file = std::nullopt);

// The run history to read: history_path_of, else (`history: false`) the default.
std::string history_to_read(const std::optional<std::string>& history_option, const RepositoryHere& repository);

}  // namespace tipc::history
