#pragma once
// A chain's runner recognised by what it is (issue 25): when none of the runner file names
// of its chain (configs/chains.yaml `runners:`) is in a config's test_tipc/ directory, the
// directory's *.sh scripts are read, and the one that fits the chain's `signature:` (what it
// reads, and one of the chain's status logs named in it) is the runner. Helpers
// (common_func.sh, prepare.sh) name no status log, so they never fit.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "dialect/chains.h"

namespace tipc::dialect {

// A script is read up to this many bytes: a runner says what it reads at its top.
inline constexpr std::size_t kRunnerScriptBytes = 256 * 1024;

// A *.sh file of a directory as recognition sees it: its name, and its text without the
// comment lines (what a runner does, not what its comments say).
struct RunnerScript {
  std::string name;
  std::string text;
};

// The text of a script without its comment lines (a line whose first non-blank is '#').
std::string without_comment_lines(const std::string& text);

// Whether `text` (comment lines left out) fits the chain's signature; never for a chain
// without one.
bool fits(const Chain& chain, const std::string& text);

// The *.sh scripts of directories, each directory read once per run, in name order.
class RunnerScripts {
 public:
  const std::vector<RunnerScript>& in(const std::string& directory);

 private:
  std::map<std::string, std::vector<RunnerScript>> by_directory_;
};

// The names of `scripts` that fit `chain`, in name order; a script that another chain names
// as its runner is that chain's and is left out.
std::vector<std::string> fitting_runners(const Chains& chains, const Chain& chain,
                                         const std::vector<RunnerScript>& scripts);

}  // namespace tipc::dialect
