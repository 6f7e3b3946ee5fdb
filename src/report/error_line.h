#pragma once
// The first real error line of a stage's log, for the JUnit failure message, the failures at
// the head of report.html and the console's recap: what a reviewer reads first.
//
// In log order, the first of:
//   * a Python traceback ("Traceback (most recent call last):", also Paddle's "C++ Traceback"):
//     its exception line, the first unindented `Name: message` or bare `NameError` after it
//     (`ValueError: ...`, `RuntimeError: ...`, Paddle's `InvalidArgumentError: ...`);
//   * an exception line outside a traceback (`RuntimeError: CUDA error: ...`);
//   * a line that says error or fatal with a colon (`Error: ...`, `error: ...`, `ERROR: ...`,
//     `[ERROR] ...`, `FATAL: ...`), CUDA's or the allocator's "out of memory", the shell's
//     `Killed`, `Segmentation fault`, `Aborted (core dumped)`.
// Terminal colour codes are dropped and a long line is cut; "" when the log has none. The
// stacks tipc-run wrote into a timed-out stage's log (from run::kStackDumpMarker on) are not
// read: faulthandler's "Fatal Python error: Aborted" there is tipc-run's doing, not the stage's.
#include <cstddef>
#include <string>
#include <string_view>

namespace tipc::report {

inline constexpr std::size_t kErrorLineMaxChars = 300;

std::string first_error_line(std::string_view log);

// The first error line of the file's last `window` bytes (a long train log's error is near
// its end); "" when the file cannot be read or has none.
std::string first_error_line_of_file(const std::string& path, std::size_t window = 1 << 20);

}  // namespace tipc::report
