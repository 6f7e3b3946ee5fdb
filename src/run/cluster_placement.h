#pragma once
// tipc-run's own placement of stages on a Slurm cluster's nodes (docs/slurm.md): a stage is
// submitted only when the nodes it is pinned to (--nodelist) have its CPUs and GPUs free by
// tipc-run's count, so Slurm starts it at once. A job Slurm has to queue starts at its next
// scheduling pass, up to seconds after the resources freed (bench/RESULTS.md). Pure: the
// Slurm executor feeds it the nodes (sinfo), the stages it starts and ends, and the nodes
// Slurm reports unavailable.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/executor.h"
#include "run/resources.h"

namespace tipc::run {

// What a stage holds on one node.
struct NodeShare {
  std::string node;
  int cpus = 0;
  int gpus = 0;
};
using Placement = std::vector<NodeShare>;

class ClusterPlacement {
 public:
  // Each task takes `cpus_per_task` CPUs (srun's --cpus-per-task, 1 by default).
  ClusterPlacement(std::vector<ClusterNode> nodes, int cpus_per_task);

  // The nodes that hold the stage now, the best fitting first (fewest GPUs, then CPUs left
  // over: a CPU stage keeps off the GPU nodes' room); nullopt when they are busy.
  std::optional<Placement> find(const Demand& demand) const;
  // Whether the stage fits the available nodes when nothing runs: one that never does is
  // left to Slurm (it queues, or refuses it) instead of waiting for room that never comes.
  bool could_ever_fit(const Demand& demand) const;
  void take(const Placement& placement);
  void give_back(const Placement& placement);
  // Nodes Slurm reports down, drained, failing or not responding: never chosen while so.
  void set_unavailable(std::set<std::string> nodes) { unavailable_ = std::move(nodes); }
  const std::set<std::string>& unavailable() const { return unavailable_; }

 private:
  struct NodeUse {
    ClusterNode node;
    int cpus_used = 0;
    int gpus_used = 0;
  };
  std::optional<Placement> find_in(const Demand& demand, bool as_if_idle) const;
  NodeUse* use_of(const std::string& node);

  std::vector<NodeUse> nodes_;
  int cpus_per_task_ = 1;
  std::set<std::string> unavailable_;
};

}  // namespace tipc::run
