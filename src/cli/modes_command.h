#pragma once
// `tipc-run modes CONFIG [--dialect-dir DIR]`: the MODEs the config's chain knows
// (configs/chains.yaml), one a line, the chain's usual ones first. The bash completion asks
// it for the modes after a config, so the chains stay declared in one place. A directory
// (a suite) gives the modes of its configs together. Not listed by --help (a tool's
// question more than a person's); docs/cli.md and the man page describe it.
// Exit codes: 0 the modes were printed, 2 no config with a chain, or bad usage.
#include <iosfwd>
#include <string>
#include <vector>

#include "dialect/chains.h"

namespace tipc::cli {

// `args` are the words after "modes".
int modes_main(const std::vector<std::string>& args);
int modes_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
