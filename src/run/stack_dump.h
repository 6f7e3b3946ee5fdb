#pragma once
// The stacks of a timed-out stage's processes, written into its log before it is stopped
// (issue 40): a hang then shows where it hangs. First the native stacks of each process, where
// eu-stack or gdb is installed and may attach; then SIGABRT to its Python processes, whose
// faulthandler (PYTHONFAULTHANDLER=1, which the scheduler sets for every stage) prints every
// thread's Python stack into the stage's own output, and a bounded wait for them to end.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tipc::run {

// The log line that starts a dump (the reports look for it: report/stack_dump.h).
inline constexpr std::string_view kStackDumpMarker = "tipc-run: timed out; the stacks of its processes follow";

struct StackDumpOptions {
  std::chrono::milliseconds python_wait{3000};  // for faulthandler's dump and the abort after it
  double native_timeout_seconds = 20;           // per process, for eu-stack or gdb
  std::size_t native_processes = 4;             // the first ones of the group get native stacks
};

// The pids of a process group, from /proc, lowest first.
std::vector<int> group_members(int group);

// The native stack tool found on PATH: "eu-stack", else "gdb", else "".
std::string native_stack_tool();

// Whether the process runs a Python interpreter (its executable is python…).
bool is_python(int pid);

// Dumps the stacks of `group`'s processes; `write` appends text to the stage's log.
void dump_group_stacks(int group, const std::function<void(std::string_view)>& write,
                       const StackDumpOptions& options = {});

}  // namespace tipc::run
