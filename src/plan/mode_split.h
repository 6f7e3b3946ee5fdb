#pragma once
// Which configs of a directory suite take which of the MODEs given (`tipc-run DIR
// MODE[,MODE...]`): a config takes a MODE its chain lists (configs/chains.yaml's `modes`).
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "dialect/chains.h"
#include "dialect/dialect.h"
#include "plan/config_selection.h"
#include "plan/plan_file_record.h"

namespace tipc::plan {

// Which configs take which MODE.
struct ModeSplit {
  // Per MODE, in the order given: the indices into the files of the configs that take it.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> by_mode;
  std::vector<ConfigInOtherModes> taking_none;  // in file order
};

// A config takes a MODE when the chain its header and file name pick in that MODE lists the
// MODE; a config that cannot be read takes every MODE (it is planned, and reported invalid
// with the reader's reason). An error for a MODE no config takes, naming the chains whose
// `modes` list it (or none).
Result<ModeSplit> split_by_mode(const std::vector<ConfigFile>& files, const std::vector<std::string>& modes,
                                const dialect::Chains& chains);

// The MODE of a MODE's configs, checked once for all of them (one error, not one per file):
// a MODE of one of the configs' chains (chains.yaml) is its runner's; else the dialect must
// know it, and the error names the dialect's MODEs and the other MODEs of the configs' chains.
Result<void> check_suite_mode(const std::vector<ConfigFile>& files, const dialect::Dialect& dialect,
                              const dialect::Chains* chains, const std::string& mode);

}  // namespace tipc::plan
