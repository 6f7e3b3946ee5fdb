#pragma once
// Several recorded runs of one side taken as one (`compare` over a commit's or branch's last
// N runs): each figure's samples become the runs' medians, one per run in which its stage
// passed. The per-step samples of one run share that run's machine state (the cores it got,
// what else ran), so a test over steps is sure of a shift between two runs of the same code;
// a test over runs sees the run-to-run spread, as LNT pools repeated runs.
#include <string>
#include <vector>

#include "gate/run_snapshot.h"

namespace tipc::gate {

// `runs` oldest first, at least one; the stages in the newest run's order (then those only
// earlier runs have), each with the newest result it has.
RunSnapshot pool_runs(const std::vector<RunSnapshot>& runs, std::string label);

}  // namespace tipc::gate
