#pragma once
// Which processes belong to which run. Every stage process gets the run's id in its
// environment (TIPC_RUN_ID), and everything it starts inherits it, also what leaves the
// stage's process group (setsid, a double fork) or is re-parented to init. The kernel shows
// the environment a process was started with in /proc/PID/environ (to root and to the same
// user), so a run's processes can still be found when tipc-run itself is gone: by the
// run's guardian (run/guardian) and by a later run in the same output directory
// (run/output_lock).
#include <sys/types.h>

#include <string>
#include <vector>

namespace tipc::run {

inline constexpr const char* kRunIdVariable = "TIPC_RUN_ID";

// This process's run id, made once: "<pid>-<start time in clock ticks>-<random hex>",
// unique on this machine even across reboots and pid reuse.
const std::string& this_run_id();

struct RunProcess {
  pid_t pid = 0;
  std::string command;  // its command line, words joined by spaces, cut at 120 characters
};

// The live processes started with `run_id` in their environment, this process excepted.
// A process that has ended (a zombie has no environment any more) or that this user may
// not inspect is not listed.
std::vector<RunProcess> processes_of_run(const std::string& run_id);

// "4242 (python3 train.py), 4243 (sleep 300)".
std::string describe(const std::vector<RunProcess>& processes);

// A whole file (of /proc or /sys), read with plain system calls: the guardian calls this
// in a forked child, where iostreams' locale machinery is best left alone. "" when it
// cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace tipc::run
