#pragma once
// This process's command line, as the kernel keeps it (/proc/self/cmdline): what the
// environment section of a report and the output lock's holder line say started tipc-run.
#include <string>
#include <vector>

namespace tipc {

// Its argv, one word each; empty where /proc is not there.
std::vector<std::string> own_command_line();

// The same words joined by single spaces, for a line a person reads.
std::string own_command_line_text();

}  // namespace tipc
