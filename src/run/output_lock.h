#pragma once
// One run per output directory at a time. Two tipc-run processes on the same plan would
// run the same stages at once into the same logs, model files and journal, and both
// report on a mix of the two.
//
// A run holds an exclusive flock(2) on <LOG>/.tipc-lock of every plan's output directory
// from before it writes anything (data steps, journal) until it exits. The kernel releases
// the lock when the holder dies, even by SIGKILL, so a crash never leaves a directory
// locked. The holder writes its pid, start time and command line into the file, so that
// a second run can say who holds it, and on a second line its run id (run/run_marker).
// Several directories (a suite) are locked in sorted order, so two suites that share plans
// cannot deadlock.
//
// The lock dies with tipc-run, but its stages may not (a guardian that was killed too, a
// process stuck in the kernel): a run that gets the lock looks for live processes that
// carry the previous holder's run id, gives them a moment to end (the guardian may still
// be killing them), and refuses the directory while any is left, naming them.
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/unique_fd.h"

namespace tipc::run {

inline constexpr const char* kLockFileName = ".tipc-lock";
inline constexpr const char* kRunIdPrefix = "run ";  // the lock file's second line: "run <run id>"

// The locks a run holds; released when destroyed (or when the process ends).
class OutputLocks {
 public:
  OutputLocks() = default;
  explicit OutputLocks(std::vector<UniqueFd> fds) : fds_(std::move(fds)) {}

 private:
  std::vector<UniqueFd> fds_;
};

struct LockOptions {
  bool wait = true;  // false (--no-wait): a directory in use is an error (exit 2)
  // Told once per directory it waits for, with a line that names the holder.
  std::function<void(const std::string&)> waiting;
};

// Locks every directory (created when missing). An error names the directory and its
// holder: in use with `wait` off, a lock file that cannot be opened, or processes of an
// earlier run still alive there (with their pids and commands).
Result<OutputLocks> lock_output_dirs(std::vector<std::string> dirs, const LockOptions& options);

// Who holds a directory's lock, as its lock file says: "pid 4242, started 2024-05-01 12:00:00 UTC,
// command: tipc-run ...". Read without locking; "" when the file says nothing.
std::string lock_holder(const std::string& dir);

}  // namespace tipc::run
