#pragma once
// `tipc-run compare-results --gt GLOB --log GLOB [--atol A] [--rtol R] [--compare allclose|labels]
// [--format tipc|video|metric] [--json FILE]`: TIPC's compare_results.py (inference output
// against ground truth) as a command, reporting every log and every failing key. `--compare
// labels` holds only what a trained model gives on every CPU (class ids, finite scores). One line per log (PASS, FAIL, SKIPPED)
// and per failing key on stdout, then a summary; --json writes the outcomes atomically.
// Exit codes: 0 every checked log passed (and one was checked), 1 a key failed or was
// missing, or no log could be checked, 2 bad input or usage.
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "compare-results".
int compare_results_main(const std::vector<std::string>& args);
int compare_results_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
