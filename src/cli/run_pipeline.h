#pragma once
// The run pipeline's top, the phases after the options: the project (root, settings,
// dialect, launcher), the suite's plans, this run's selection of them (shard, --only, -k),
// then a dry run's print or the run itself (cli/run_phase) and its reports.
#include "cli/options.h"

namespace tipc::cli {

// Steps 2 to 5 of main(): the chain run the options describe; its exit code.
int run_chain(const Options& options);

}  // namespace tipc::cli
