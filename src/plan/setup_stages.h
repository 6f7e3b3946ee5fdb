#pragma once
// What a traced runner prepares before its stages (its housekeeping: trace::Trace::housekeeping)
// as setup stages of the plan, replayed at run time in the runner's order. The calls the
// runner made between two stages become one setup stage (kind kSetup) placed before the
// later one, running `tipc-run setup -- ACTION...` in the repository root, one ACTION word
// per call (plan/setup_action.h). Pure: it reads no files.
//
// Dependencies come from the paths the actions and the stages use (plan/data_flow.h): a
// setup stage waits for the earlier stages (setup stages included) whose paths overlap its
// own; a later stage waits for it when it reads, writes or runs inside what it makes or
// removes (a build in `deploy/cpp/build` after `mkdir -p build`). A stage whose paths are
// not visible (a build tool) keeps the runner's order with every setup stage. A directory made inside the
// plan's output directory is left out: tipc-run makes every log's directory itself.
// An action that cannot be read back, or that writes outside the repository and the allowed
// roots, makes its stage UNSUPPORTED with the reason (and the stages after it with it).
#include <string>
#include <vector>

#include "plan/data_flow.h"
#include "plan/plan.h"
#include "trace/trace.h"

namespace tipc::plan {

struct SetupStageOptions {
  std::string tipc_run_binary = "tipc-run";
  bool offline = false;                    // --offline: downloads only from the cache
  std::vector<std::string> allowed_roots;  // outside the repository: where actions may write
  // The repository root as the trace's strings spell it ("." = none): absolute paths inside
  // it (a runner's `${PWD}/test_tipc/output/...`) are the repository's.
  std::string repo_root = ".";
};

// `plan.stages[i]` is the stage of `trace.calls[i]` and `uses[i]` its path use (with its log).
void add_setup_stages(Plan& plan, const trace::Trace& trace, std::vector<PathUse> uses,
                      const SetupStageOptions& options);

}  // namespace tipc::plan
