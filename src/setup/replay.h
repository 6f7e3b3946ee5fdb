#pragma once
// Replaying a runner's housekeeping: the actions of a plan's setup stage (plan/setup_action.h),
// each `cd DIR && PROGRAM ARG...` with DIR relative to the repository root, run for real.
//
// Nothing outside the repository root and the allowed directories is written, moved or
// removed: checked on the words as written, then again with the symlinks of what exists
// resolved. What already happened is not repeated: an archive unpacked with its stamp, a git
// checkout, a download kept by `wget -nc`, a CMake build directory newer than its sources
// (its `rm -rf` is skipped, so cmake and make run incrementally), an existing directory for
// `mkdir`. Downloads and clones go through the download cache (data/download_cache.h);
// offline, what it lacks is refused. `tipc-run setup` (cli/setup_command) is the command
// around it: its arguments, its exit codes, the signals it passes on.
#include <atomic>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "data/download_cache.h"
#include "plan/setup_action.h"

namespace tipc::setup {

// What a replay may touch and where its downloads come from.
struct ReplayScope {
  std::filesystem::path root;        // the repository root, its symlinks resolved
  std::vector<std::string> allowed;  // directories outside it the actions may write (the output tree)
  std::string cache_directory;       // the download cache
  bool offline = false;              // refuse downloads and clones the cache lacks
  // Holds the process group of the program running now (0 between programs), for a signal
  // handler that passes a termination on; may be null.
  std::atomic<int>* running_group = nullptr;
};

// A scope made ready for replaying: the allowed directories resolved once.
struct ReplayContext {
  std::filesystem::path root;
  std::vector<std::string> allowed;
  std::vector<std::string> allowed_resolved;
  data::DownloadCache cache;
  bool offline = false;
  std::atomic<int>* running_group = nullptr;
  std::ostream& out;  // the programs' own output, and notes such as a mirror left stale
};

ReplayContext make_replay_context(const ReplayScope& scope, std::ostream& out);

// Runs one action; what happened in a line or a few ("made build", "already there: build",
// "removed a b\nnothing to remove: c"). An error names a refused path ("refused: ..."), a
// missing directory, or the program that failed and why.
Result<std::string> replay_action(const plan::SetupAction& action, const ReplayContext& context);

// The action words of a setup stage's argv, parsed; an error names the first that does not parse.
Result<std::vector<plan::SetupAction>> parse_setup_actions(const std::vector<std::string>& words);

}  // namespace tipc::setup
