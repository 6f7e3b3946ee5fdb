#pragma once
// `tipc-run compare BASE NEW`: a run against a baseline, by the gates (gate/run_comparison.h).
// BASE and NEW are each an output directory holding a run's state, a bundle (--bundle
// FILE.tar.gz), a run id of the run history (`12` or `run:12`), or a commit prefix or branch
// whose latest recorded run is taken (history/run_reference.h). Prints the comparison; --markdown, --json and --junit also write it as files.
// Exit codes: 0 no failing regression, 6 a failing regression, 2 bad input.
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

int compare_main(const std::vector<std::string>& args);
int compare_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
