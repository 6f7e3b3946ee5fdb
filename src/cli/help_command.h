#pragma once
// `tipc-run help [SUBCOMMAND]`: the help of a chain run (what --help prints), or of one
// subcommand (what `tipc-run SUBCOMMAND --help` prints), for those who type help as a word.
// Exit codes: 0 the help was printed, 2 no subcommand by that name.
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "help". Writes to stdout, or to stderr on an error.
int help_main(const std::vector<std::string>& args);

}  // namespace tipc::cli
