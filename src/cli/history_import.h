#pragma once
// `tipc-run history import DIR_OR_BUNDLE... [--history FILE]`: records runs that are known
// only by what they left, output directories holding a run's state (as `tipc-run report DIR`
// reads them) and bundles (--bundle FILE.tar.gz: its reports/report.json), in the run
// history. Each keeps its own times, verdict, commit, branch and environment, as its state
// or report.json carries them. A run the history holds already (the same start, finish and
// repository root) is not recorded again. One line per input: `imported X as run N`,
// `already recorded X as run N`, or an error naming X; the others are still imported, each
// in one transaction. Exit codes: 0 every input recorded, 2 an input failed or bad usage.
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// args: the words after `history import`.
int history_import_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
