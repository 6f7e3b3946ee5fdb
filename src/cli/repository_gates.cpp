#include "cli/repository_gates.h"

#include <filesystem>

#include "cli/history_location.h"
#include "config/project_settings.h"

namespace tipc::cli {

Result<gate::GateRules> repository_gate_rules(const std::optional<std::string>& settings_file) {
  std::error_code ec;
  const std::string found = repository_around(std::filesystem::current_path(ec).string()) + "/test_tipc/tipc-run.yaml";
  if (!settings_file && !std::filesystem::exists(found, ec)) return gate::GateRules{};
  const config::ProjectSettings settings = TRY(config::load_project_settings(settings_file.value_or(found)));
  return gate::rules_from_settings(settings.gates);
}

}  // namespace tipc::cli
