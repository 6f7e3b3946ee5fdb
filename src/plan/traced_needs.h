#pragma once
// The resources a traced call needs, read from what the runner gave it: a distributed
// launcher's arguments (--gpus, --devices, --nproc_per_node, --ips), else the program's
// own device switch (use_gpu=..., device=...), else CUDA_VISIBLE_DEVICES.
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace tipc::plan {

struct TracedNeeds {
  Needs needs;
  std::string launcher;  // the launcher module (`paddle.distributed.launch`), "" for a single process
  std::string hosts;     // the --ips value of a multi-node launch
};

TracedNeeds traced_needs(const std::vector<std::string>& args, const std::optional<std::string>& cuda_visible_devices);

}  // namespace tipc::plan
