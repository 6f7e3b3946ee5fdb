#pragma once
// The path of this very tipc-run binary: the program of the stages that run its own
// subcommands (alignment checks, setup steps), so that they run the same version.
#include <string>

namespace tipc::cli {

// /proc/self/exe's target, else "tipc-run" (found on PATH).
std::string running_binary();

}  // namespace tipc::cli
