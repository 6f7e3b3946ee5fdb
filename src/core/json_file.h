#pragma once
// JSON files the reports read: pretty-printed, invalid UTF-8 replaced (paths and log text
// may carry any bytes), written atomically.
#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace tipc {

// A failure says "cannot write PATH: REASON".
Result<void> write_json_atomically(const std::string& path, const nlohmann::ordered_json& json);

// `json` as dump(2) writes it nested `depth` levels deep: every line after the first
// indented. (A dumped string never holds a raw newline.)
void append_nested(std::string& out, const nlohmann::ordered_json& json, int depth);

// `head`, whose last member is an empty array, with that array's `count` elements
// appended by `element` (out, index, depth) one at a time: what dump(2) writes for the
// whole tree, without the whole tree in memory (a 1000-stage plan's tree takes several MiB).
void append_streamed(std::string& out, const nlohmann::ordered_json& head, int depth, std::size_t count,
                     const std::function<void(std::string&, std::size_t, int)>& element);

}  // namespace tipc
