#pragma once
// JSON files the reports read: pretty-printed, invalid UTF-8 replaced (paths and log text
// may carry any bytes), written atomically.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tipc {

// Returns a message on failure, nullopt on success.
std::optional<std::string> write_json_atomically(const std::string& path, const nlohmann::ordered_json& json);

}  // namespace tipc
