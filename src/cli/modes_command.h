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

// The modes of the chains a config with this header and file name is run by: those of the
// chain chosen whatever the MODE, then those of chains chosen for a MODE of their own
// (benchmark_train), each mode once and only where choose_chain picks the chain that
// lists it. Empty when no chain matches the config.
std::vector<std::string> chain_modes(const dialect::Chains& chains, const std::string& header,
                                     const std::string& file_name);

// `args` are the words after "modes".
int modes_main(const std::vector<std::string>& args);
int modes_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
