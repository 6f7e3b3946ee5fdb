#pragma once
// Short helper commands whose output tipc-run reads (nvidia-smi, sinfo, squeue, scancel),
// and the traced runner (trace/tracer.h, as the sandbox's user): started without a shell,
// stdin from /dev/null, in a process group of their own, output captured up to a bound, the
// whole group killed when they overrun their time, and what they left running in it killed
// when they end.
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tipc {

struct CommandSpec {
  std::vector<std::string> argv;  // argv[0] is looked up on the PATH of tipc-run's environment
  std::string cwd;                // empty: tipc-run's own
  // The child's whole environment as NAME=VALUE; nullopt: tipc-run's own.
  std::optional<std::vector<std::string>> environment;
  double timeout_seconds = 30;
  bool separate_stderr = false;  // stderr into CommandOutcome::error_output, not output
  // Bytes kept of each stream; the rest is read and dropped, so the child never blocks.
  std::size_t output_limit = static_cast<std::size_t>(-1);
  // Holds the child's process group while it runs (0 before and after), for a signal
  // handler of the caller to pass a termination on to it: being a group of its own, the
  // child does not get the signals sent to the caller's group.
  std::atomic<int>* running_group = nullptr;
  // Starts the child as this user and group id (tipc-run must be root): no supplementary
  // groups, every capability set and the bounding set emptied, no_new_privs; done between
  // clone and exec, so no helper program starts first. nullopt: as tipc-run's own user.
  std::optional<unsigned> run_as;
};

struct CommandOutcome {
  std::optional<int> exit_code;  // nullopt: it did not start, was killed by a signal or timed out
  bool timed_out = false;        // its group was killed at the deadline
  std::string launch_error;      // why it did not start ("" when it did)
  std::string output;            // stdout (and stderr unless separate_stderr), bounded
  std::string error_output;      // stderr when separate_stderr, bounded
  bool ok() const { return exit_code == 0; }
  // Why it failed, in one line: why it did not start, else the first line of its output.
  std::string failure() const;
};

CommandOutcome run_command(const CommandSpec& spec);

// Runs argv (looked up on PATH) with stdout and stderr captured together.
CommandOutcome run_command(const std::vector<std::string>& argv, double timeout_seconds = 30);

}  // namespace tipc
