#pragma once
// `tipc-run setup [--offline] [--allow DIR]... -- ACTION...`: replays a runner's
// housekeeping, the argv of a plan's setup stage (kind `setup`). Each ACTION is one word
// `cd DIR && PROGRAM ARG...` (plan/setup_action.h), DIR relative to the current directory,
// which is the repository root. The actions run in order (setup/replay.h: what is refused,
// what is not repeated); before each it prints `+ ACTION`, after it what happened. A
// termination (the stage's timeout, an interrupt) is passed on to the program running.
// Not listed by --help: plans run it, people rarely do (docs/cli.md describes it).
// Exit codes: 0 every action succeeded, 1 one failed or was refused (the rest did not run),
// 2 bad usage or an action word that does not parse (nothing ran).
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "setup".
int setup_main(const std::vector<std::string>& args);
int setup_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
