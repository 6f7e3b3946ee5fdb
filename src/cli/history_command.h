#pragma once
// `tipc-run history [METRIC] [--stage GLOB] [--runs N] [--history FILE]`: the run history as
// text. Without METRIC, the last runs (id, start, commit, branch, verdict, output directory);
// with it, that figure's median per matching stage in the last runs that have it, oldest
// first: a metric followed over commits. Exit codes: 0 printed, 2 no history or bad input.
// `tipc-run history import ...` records existing runs (cli/history_import.h).
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

int history_main(const std::vector<std::string>& args);
int history_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
