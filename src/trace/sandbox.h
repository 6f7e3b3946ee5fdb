#pragma once
// How a traced runner is kept from the machine.
//
// bubblewrap (bwrap): the whole file system read-only, only the scratch directory
// writable, fresh /dev and /proc, its own PID namespace and no network but loopback
// (--unshare-net), and it dies with tipc-run (--die-with-parent).
//
// The fallback (no bwrap, or --trace-isolation none) only runs the runner in the scratch
// copy with an emptied environment, the stand-ins first on PATH, HOME and TMPDIR inside
// the scratch directory, in a process group that is killed at the timeout. It does NOT
// prevent writes outside the scratch directory through absolute or parent paths, network
// access by programs other than the no-op downloaders (wget, curl, git, pip), nor
// processes that leave the process group (setsid) from outliving the trace.
#include <string>
#include <vector>

#include "core/error.h"
#include "trace/trace_request.h"

namespace tipc::trace {

struct Sandbox {
  bool bwrap = false;
  std::string warning;  // set for the fallback: what it does not guard
};

// bwrap when asked for (an error when it does not work here), or when automatic and a
// probe run of bwrap succeeds (once per process); else the fallback, with its warning.
Result<Sandbox> choose_sandbox(Isolation isolation);

// A file put over another inside the sandbox, read-only (bwrap only).
struct FileBind {
  std::string source, target;
};

// argv wrapped for the sandbox; `writable` is the one directory the command may write to.
std::vector<std::string> sandboxed_argv(const Sandbox& sandbox, const std::string& writable,
                                        std::vector<std::string> argv, const std::vector<FileBind>& binds = {});

}  // namespace tipc::trace
