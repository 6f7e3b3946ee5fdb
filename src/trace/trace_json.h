#pragma once
// A Trace as JSON (the trace cache's file format), and back.
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "trace/trace.h"

namespace tipc::trace {

nlohmann::ordered_json trace_to_json(const Trace& trace);
// An error names the key that is missing or of the wrong type.
Result<Trace> trace_from_json(const nlohmann::json& json);

}  // namespace tipc::trace
