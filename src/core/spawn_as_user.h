#pragma once
// Starting a program as another user (CommandSpec::run_as, for the trace sandbox): the
// privileges are dropped in the child between clone and exec, where a helper program
// (setpriv) would cost a program start of its own on every trace (docs/internals.md, "The
// trace sandbox").
#include <signal.h>
#include <sys/types.h>

namespace tipc {

// What the child starts with, as posix_spawn would take it.
struct SpawnRequest {
  char* const* argv;     // argv[0] is looked up on the PATH of tipc-run's environment
  char* const* envp;     // the child's whole environment
  const char* cwd;       // nullptr: tipc-run's own
  int out_fd, err_fd;    // become its stdout and stderr; stdin is /dev/null
  const sigset_t* mask;  // its signal mask; nullptr: the caller's
};

// Starts the request in a process group of its own as user and group `id`, with no
// supplementary groups, no capabilities in any set (the bounding and ambient sets included)
// and no_new_privs. Needs root (CAP_SETUID, CAP_SETGID, CAP_SETPCAP). Returns 0 with `pid`
// set, or the errno of the step that failed, the child then reaped.
int spawn_as_user(const SpawnRequest& request, unsigned id, pid_t& pid);

}  // namespace tipc
