#pragma once
// `tipc-run setup [--offline] [--allow DIR]... -- ACTION...`: replays a runner's
// housekeeping, the argv of a plan's setup stage (kind `setup`). Each ACTION is one word
// `cd DIR && PROGRAM ARG...` (plan/setup_action.h), DIR relative to the current directory,
// which is the repository root. The actions run in order; before each it prints
// `+ ACTION`, after it one line of what happened. Nothing outside the repository root and
// the --allow directories is written, moved or removed (checked again here with the
// symlinks of what exists resolved). What already happened is not repeated: an archive
// unpacked with its stamp, a git checkout, a download kept by wget -nc, a CMake build
// directory newer than its sources (its `rm -rf` is skipped, so cmake and make run
// incrementally), an existing directory for `mkdir`. Downloads and clones go through the
// download cache (data/download_cache.h); --offline refuses what is not in it.
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
