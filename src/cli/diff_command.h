#pragma once
// `tipc-run diff A B [--method mean|min|max|all] [--threshold T] [--log FILE] [--compat]`:
// reprod_log's ReprodDiffHelper as a command. The report goes to stdout (and, with --log,
// atomically to FILE); the exit code is the verdict: 0 passed, 1 failed (including
// structural mismatches), 2 unreadable or invalid input or bad usage.
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "diff" (not the program name, not "diff" itself).
int diff_main(const std::vector<std::string>& args);
int diff_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
