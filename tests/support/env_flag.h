#pragma once
// The tests' switches from the environment (TIPC_UPDATE_GOLDEN=1, TIPC_CONFORMANCE_EVERY_RUN=1,
// TIPC_CHAINS_EVERY_CONFIG=1): on only when the variable is exactly "1".
#include <cstdlib>
#include <string_view>

namespace tipc::test {

inline bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  return value && std::string_view(value) == "1";
}

}  // namespace tipc::test
