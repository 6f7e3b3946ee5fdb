#pragma once
// The startup file (BASH_ENV) that makes bash record every string the traced runner
// evaluates, without editing the runner.
#include <string>

namespace tipc::trace {

// Wraps the `eval` builtin in a function that appends "<token>\0<string>\0" to
// $TIPC_TRACE_EVALS, the string as the builtin receives it (its arguments joined by single
// spaces, whatever IFS is), and exports the token as TIPC_TRACE_EVAL while the string runs,
// so that stand-ins started by it name it. The runner sees the same IFS, the same $? inside
// the string, and the same exit status and PIPESTATUS after it. What differs: `local` and
// `return` inside an evaluated string act on the wrapper function.
std::string bash_env_script();

}  // namespace tipc::trace
