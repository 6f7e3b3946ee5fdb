#pragma once
// Dependencies of traced stages from the paths their arguments name. A stage that
// reads a path an earlier stage writes (or a file inside it, or a directory holding it)
// waits for that stage; two stages writing the same path keep their order. A stage
// whose data flow cannot be seen keeps trace order with everything around it: a correct
// serial plan beats a wrong parallel one.
#include <cstddef>
#include <string>
#include <vector>

namespace tipc::plan {

struct PathUse {
  std::vector<std::string> reads;   // repository-relative (or absolute outside it), normalised
  std::vector<std::string> writes;  // output directories named by save/output options, and the log
  bool barrier = false;             // flow not visible: ordered against every other stage
};

// The paths in `args` (values of KEY=VALUE words and words after an option), resolved
// against `cwd` (relative to the repository root); `repo_root` is the absolute root's text,
// so absolute paths inside it become relative. A value is written when its key names a
// save or output location.
PathUse path_use(const std::vector<std::string>& args, const std::string& cwd, const std::string& repo_root);

// For each stage, the indices of the earlier stages it must wait for, transitively reduced.
std::vector<std::vector<std::size_t>> data_flow_dependencies(const std::vector<PathUse>& uses);

}  // namespace tipc::plan
