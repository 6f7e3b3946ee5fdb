#pragma once
// The run's guardian: the one process of a run that outlives tipc-run, and only to clean
// up. tipc-run kills what it started whenever it ends in order (run/process_executor), but a
// SIGKILL (a cancelled CI job, the OOM killer) ends it without a chance to: the stage's
// own process dies with it (PR_SET_PDEATHSIG), while its children (a trainer's workers, a
// daemon, anything that ignores SIGTERM or left the group) would run on, holding their
// GPUs and writing into the output directory.
//
// So before its first stage, tipc-run forks the guardian: plain code, no exec, in a process
// group of its own and deaf to SIGINT, SIGTERM and SIGHUP, so that what stops tipc-run's
// group does not stop it. It blocks on a socket whose other end only tipc-run holds
// (close-on-exec, so no stage inherits it). When tipc-run ends in order it says so first,
// and the guardian exits touching nothing. When the socket closes without that word,
// tipc-run is gone: the guardian SIGKILLs every process that carries the run's id
// (run/run_marker), scanning /proc again until none is left, says on stderr what it
// killed, and exits.
//
// Where the run has a cgroup (run/run_cgroup), the guardian then kills whatever is left in
// it too: a process that emptied its environment (env -i) carries no mark, but cannot leave
// the cgroup.
//
// Why a guardian and not a cgroup alone: cgroup.kill needs a writable cgroup v2 directory,
// which root in a container (CI) has, but an ordinary user's login session on a systemd
// machine does not (no delegation outside user@.service), and kernels before 5.14 have no
// cgroup.kill; and something must still be alive to write to it. The guardian works for
// any user on any Linux with /proc.
#include <sys/types.h>

#include <string>

#include "core/unique_fd.h"

namespace tipc::run {

class Guardian {
 public:
  // Forks the guardian of the processes that carry `run_id` and of the cgroup at
  // `cgroup_path` ("" for none). If it cannot be forked the run goes on unguarded
  // (active() is false): what ends in order still cleans up.
  Guardian(const std::string& run_id, const std::string& cgroup_path);
  ~Guardian() { release(); }
  Guardian(const Guardian&) = delete;
  Guardian& operator=(const Guardian&) = delete;

  bool active() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  // Tells the guardian that the run ended in order and waits for it to exit (at once).
  void release();

 private:
  pid_t pid_ = -1;
  UniqueFd to_guardian_;
};

}  // namespace tipc::run
