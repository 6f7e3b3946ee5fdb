#pragma once
// How a traced runner is kept from the machine (docs/internals.md, "The trace sandbox").
//
// bubblewrap (bwrap), with no more power than an unprivileged user: when tipc-run is root,
// the child drops to the overflow id 65534 ("nobody", which owns nothing on the host) with
// no capabilities left in any set before it execs bwrap (CommandSpec::run_as); bwrap then
// puts the runner in its own user namespace (no capabilities, no further user namespaces,
// no_new_privs), its own PID, IPC and network namespaces (loopback only) and a new
// terminal session, and dies with tipc-run. The file system it sees is built, not
// inherited: the system directories (/usr, /etc and the /bin, /lib links) read-only, fresh
// /dev, /proc and /tmp, the stand-in and the interpreter binds read-only, the scratch
// directory writable; home directories, /root, /run, /var, /srv, /mnt, /media, /opt and the
// repository itself are not there.
//
// The fallback (no bwrap, or --trace-isolation none) only runs the runner in the scratch
// copy with an emptied environment, the stand-ins first on PATH, HOME and TMPDIR inside
// the scratch directory, in a process group that is killed at the timeout. It does NOT
// prevent writes outside the scratch directory through absolute or parent paths, network
// access by programs other than the no-op downloaders (wget, curl, git, pip), nor
// processes that leave the process group (setsid) from outliving the trace.
#include <optional>
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

// The user the runner runs as (CommandSpec::run_as), and so who must own the directory it
// writes to: the overflow id when tipc-run is root and bwrap is used; nullopt when the runner
// runs as tipc-run's own user.
std::optional<unsigned> sandbox_user(const Sandbox& sandbox);

// argv wrapped for the sandbox (to be run as sandbox_user); `writable` is the one directory
// the command may write to, `binds` the only other files it sees beside the system
// directories.
std::vector<std::string> sandboxed_argv(const Sandbox& sandbox, const std::string& writable,
                                        std::vector<std::string> argv, const std::vector<FileBind>& binds = {});

}  // namespace tipc::trace
