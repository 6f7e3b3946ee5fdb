#pragma once
// The `gates:` rules a command outside a run compares by (`tipc-run compare`, `tipc-run
// history --html`): those of --settings FILE, else of test_tipc/tipc-run.yaml of the
// repository around the current directory when it exists, else the defaults.
#include <optional>
#include <string>

#include "core/error.h"
#include "gate/gate_rules.h"

namespace tipc::cli {

Result<gate::GateRules> repository_gate_rules(const std::optional<std::string>& settings_file);

}  // namespace tipc::cli
