#pragma once
// Variables passed into a trace (--trace-env, the settings' trace_env): what a runner reads
// from its environment (`$TEST_DIR`) where the trace would otherwise start it with none. They
// are data: they reach the runner as its users' shell would give them, and every call the
// runner starts carries them into the plan (trace/trace.h, TracedCall::env), so the run uses
// the values the plan was traced with. They never replace what the trace itself sets, nor
// change how bash runs the runner (its mode and start-up files), nor the GPUs tipc-run
// allocates: those names are refused.
#include <map>
#include <optional>
#include <string>

namespace tipc::trace {

// NAME -> VALUE.
using PassedEnvironment = std::map<std::string, std::string>;

// Why `name` cannot be passed into a trace; nullopt when it can. A name must be a shell
// variable's (letters, digits, `_`, not starting with a digit).
std::optional<std::string> passed_variable_refusal(const std::string& name);

}  // namespace tipc::trace
