#pragma once
// Reading back what a trace wrote: the stand-ins' call log and the evaluated strings
// (both NUL-separated fields, so any byte but NUL survives), and mapping the scratch
// tree's paths back to the repository's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace tipc::trace {

// One record of stand_in/main.cpp, as written.
struct RawCall {
  bool housekeeping = false;  // tagged "H": a housekeeping program (mkdir, wget, tar, ...)
  std::string program;
  std::string cwd;
  std::string stdin_target;   // /proc/self/fd/0's link ("pipe:[12]" for a pipe)
  std::string stdout_target;  // /proc/self/fd/1's link
  std::string stderr_target;
  std::string eval_token;  // TIPC_TRACE_EVAL: the evaluated string it ran under, "" for none
  std::vector<std::string> args;
  std::vector<std::string> environment;  // NAME=VALUE
};

// One string of trace/bash_env.cpp's wrapper.
struct RawEval {
  std::string token;
  std::string text;
};

// A file the traced runner may have written, read back by tipc-run (which may be root):
// never through a symbolic link (the runner owns the scratch tree and could point a log at
// /etc/shadow), never blocking on a FIFO, at most `limit` bytes. nullopt when the path is
// missing, not a regular file, or longer than `limit`.
std::optional<std::string> read_runner_file(const std::string& path, std::size_t limit);

// A missing file reads as empty (nothing was called or evaluated); a cut record, a log that is
// no regular file or one over 256 MiB is an error.
Result<std::vector<RawCall>> read_calls(const std::string& path);
Result<std::vector<RawEval>> read_evals(const std::string& path);

// The scratch repository's path in text, and the way back.
class PathMap {
 public:
  PathMap(std::string scratch_repo, std::string repo_text)
      : scratch_repo_(std::move(scratch_repo)), repo_text_(std::move(repo_text)) {}
  // Every occurrence of the scratch repository's path replaced by the repository's text.
  std::string text(std::string text) const;
  // A directory relative to the repository ("." for its root, ".." above it), else its
  // absolute path.
  std::string directory(const std::string& path) const;
  // Where a descriptor pointed: relative inside the repository, absolute outside it, ""
  // for a pipe, socket or terminal (the runner's own output).
  std::string target(const std::string& link) const;

 private:
  std::string scratch_repo_;
  std::string repo_text_;
};

}  // namespace tipc::trace
