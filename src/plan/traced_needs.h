#pragma once
// The resources a traced call needs, read from what the runner gave it: a distributed
// launcher's arguments (--gpus, --devices, --nproc_per_node, --ips), else the program's
// own device switch (use_gpu=..., device=...), else CUDA_VISIBLE_DEVICES. A call with none
// of these (CUDA_VISIBLE_DEVICES unset: it sees every GPU, and Paddle's default device is the
// first of them) runs where its inputs were made: the planner gives it a GPU when a stage it
// reads from had one (`follows_inputs`), as an export after a multi-GPU train in a runner
// that unset CUDA_VISIBLE_DEVICES after training.
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace tipc::plan {

struct TracedNeeds {
  Needs needs;
  std::string launcher;         // the launcher module (`paddle.distributed.launch`), "" for a single process
  std::string hosts;            // the --ips value of a multi-node launch
  bool follows_inputs = false;  // nothing above decided: the device of the stages it reads from
};

TracedNeeds traced_needs(const std::vector<std::string>& args, const std::optional<std::string>& cuda_visible_devices);

}  // namespace tipc::plan
