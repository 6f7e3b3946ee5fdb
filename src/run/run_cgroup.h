#pragma once
// The run's cgroup, where this user may make one: a cgroup v2 directory
// <mount><tipc-run's own cgroup>/tipc-run-<run id>, into which every stage process moves
// itself before it execs. Nothing leaves a cgroup by forking, setsid or emptying its
// environment, so the guardian (run/guardian) kills through it what the run's mark
// (run/run_marker) may miss. Where no cgroup can be made (an ordinary user's login session
// on systemd delegates none, a cgroup v1-only machine) the run goes on without one; root
// in a container, as on CI, has one.
#include <string>

#include "core/unique_fd.h"

namespace tipc::run {

class RunCgroup {
 public:
  // Makes the cgroup; an inactive one (path() empty) where it cannot be made.
  explicit RunCgroup(const std::string& run_id);
  ~RunCgroup();  // kills what is still in it, and removes it
  RunCgroup(const RunCgroup&) = delete;
  RunCgroup& operator=(const RunCgroup&) = delete;

  const std::string& path() const { return path_; }
  // Its cgroup.procs, open for writing (-1 when inactive): a child writes "0" to it to
  // move itself in, between fork and exec.
  int procs_fd() const { return procs_.get(); }

 private:
  std::string path_;
  UniqueFd procs_{-1};
};

// Kills every process in the cgroup at `path` (cgroup.kill where the kernel has it,
// kernels before 5.14: each pid in cgroup.procs, until it is empty) and removes it. Plain
// system calls: the guardian calls it.
void kill_cgroup(const std::string& path);

}  // namespace tipc::run
