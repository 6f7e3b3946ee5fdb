#pragma once
// Executing plans: the data they need, the resources they get, the scheduler and
// its reporters. Returns the process exit code.
#include <vector>

#include "cli/options.h"
#include "cli/project.h"
#include "plan/plan.h"
#include "run/gpu_devices.h"
#include "run/journal.h"
#include "run/resources.h"
#include "run/run_verdict.h"

namespace tipc::cli {

// --resource-spec, else --gpus, else CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES, else what
// the driver shows (`inventory`): run/resources.h.
Result<run::ResourceSpec> resources_for(const Options& options, const run::GpuInventory& inventory);

// `plans` are the stages --only and -k selected; `whole_plans` the same plans before that
// (the reports describe them whole). The exit code is the verdict every report prints
// (run/run_verdict.h), and 1 instead of 0 when the journal, a plan file or a results log
// could not be written. `left_out`: the configs left out of the run (invalid, with their
// problems, and excluded), for its reports; `configs`: how many were given and left out.
int run_plans(const std::vector<plan::Plan>& plans, const std::vector<plan::Plan>& whole_plans, const Project& project,
              const Options& options, const run::ConfigsLeftOut& left_out, run::ConfigCount configs);

}  // namespace tipc::cli
