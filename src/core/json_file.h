#pragma once
// JSON files the reports read: pretty-printed, invalid UTF-8 replaced (paths and log text
// may carry any bytes), written atomically.
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace tipc {

// A failure says "cannot write PATH: REASON".
Result<void> write_json_atomically(const std::string& path, const nlohmann::ordered_json& json);

}  // namespace tipc
