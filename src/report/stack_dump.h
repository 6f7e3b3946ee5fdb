#pragma once
// Where a timed-out stage hung, read back from its log (issue 40). Before it stops such a
// stage, tipc-run writes the run::kStackDumpMarker line into its log, then the native stacks
// of its first processes (eu-stack's or gdb's output, each after a line `tipc-run: native
// stack of pid N (COMMAND) from TOOL:`), and its Python processes' faulthandler prints every
// thread's Python stack (run/stack_dump.h). The reports show the first frames beside the TIMEOUT.
//
// Only the whole lines after the log's last marker count (a dump the kill cut ends at its last
// whole line). The frames, most recent call first, at most kStackFrames of:
//   * the first Python dump's current thread (`Current thread 0x... (most recent call first):`,
//     or `Stack (most recent call first):`) when it has Python frames, else its first thread
//     that has (`Thread 0x...`): each frame `FILE:LINE in FUNCTION`, FILE the base name of the
//     path faulthandler printed (`hang.py:5 in spin`; the log holds the whole path);
//   * without Python frames, the native frames of the first process that has any: of its main
//     thread (eu-stack's `TID <pid>:`, gdb's `(LWP <pid>)`), else of its first thread; each
//     frame its function (`__select`), or its address where the tool named none.
// Each frame is cut to kStackFrameMaxBytes. The text is the log's: a report escapes it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tipc::report {

inline constexpr std::size_t kStackFrames = 5;
inline constexpr std::size_t kStackFrameMaxBytes = 200;
// What is read of a log: the native stacks of four processes are up to 64 KiB each.
inline constexpr std::size_t kStackDumpWindow = 512 << 10;

std::vector<std::string> first_stack_frames(std::string_view log);

// The same of the file's last kStackDumpWindow bytes; empty when it cannot be read.
std::vector<std::string> first_stack_frames_of_file(const std::string& path);

}  // namespace tipc::report
