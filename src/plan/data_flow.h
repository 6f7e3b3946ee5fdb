#pragma once
// Dependencies of traced stages from the paths their arguments name. A stage that reads a
// path an earlier stage writes (or a file inside it, or a directory holding it) depends on
// that stage: it runs only once that one passed, and is SKIPPED when it did not. Only the
// latest writer of a path counts: a stage reads what overwrote an earlier output, not that
// output. Two stages writing the same path, or a stage writing what an earlier one reads,
// keep their order and nothing more (the later one starts once the earlier ended, whatever
// its result): the later one does not read the earlier's output. A stage whose data flow
// cannot be seen depends on everything around it: a correct serial plan beats a wrong
// parallel one.
#include <cstddef>
#include <string>
#include <vector>

namespace tipc::plan {

struct PathUse {
  std::vector<std::string> reads;   // repository-relative (or absolute outside it), normalised
  std::vector<std::string> writes;  // output directories named by save/output options
  // The stage's own log: what a later stage that names it reads. Two stages' logs of one name
  // order nothing: each stage's log gets a name of its own (plan/output_separation.h).
  std::string log;
  bool barrier = false;  // flow not visible: ordered against every other stage
};

// The paths in `args` (values of KEY=VALUE words and words after an option), resolved
// against `cwd` (relative to the repository root); `repo_root` is the absolute root's text,
// so absolute paths inside it become relative. A value is written when its key names a
// save or output location.
PathUse path_use(const std::vector<std::string>& args, const std::string& cwd, const std::string& repo_root);

// For each stage, indices of earlier stages, each list transitively reduced.
struct FlowEdges {
  std::vector<std::vector<std::size_t>> deps;   // what it reads from (or a barrier): Stage::deps
  std::vector<std::vector<std::size_t>> after;  // what it overwrites or what read it first: Stage::after
};

FlowEdges data_flow_edges(const std::vector<PathUse>& uses);

}  // namespace tipc::plan
