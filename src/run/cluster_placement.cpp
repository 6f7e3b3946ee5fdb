#include "run/cluster_placement.h"

#include <algorithm>
#include <tuple>

namespace tipc::run {

ClusterPlacement::ClusterPlacement(std::vector<ClusterNode> nodes, int cpus_per_task)
    : cpus_per_task_(std::max(cpus_per_task, 1)) {
  for (auto& node : nodes) nodes_.push_back({std::move(node), 0, 0});
}

std::optional<Placement> ClusterPlacement::find(const Demand& demand) const { return find_in(demand, false); }

bool ClusterPlacement::could_ever_fit(const Demand& demand) const { return find_in(demand, true).has_value(); }

// An exclusive stage takes its nodes whole; the others their tasks' CPUs and their GPUs.
std::optional<Placement> ClusterPlacement::find_in(const Demand& demand, bool as_if_idle) const {
  const int cpus = std::max(demand.tasks_per_node, 1) * cpus_per_task_;
  struct Candidate {
    std::tuple<int, int, std::size_t> fit;  // GPUs left, CPUs left, sinfo's order
    NodeShare share;
  };
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const NodeUse& use = nodes_[i];
    if (unavailable_.count(use.node.name)) continue;
    const int cpus_free = use.node.cpus - (as_if_idle ? 0 : use.cpus_used);
    const int gpus_free = use.node.gpus - (as_if_idle ? 0 : use.gpus_used);
    if (cpus_free < cpus || gpus_free < demand.gpus) continue;
    if (demand.exclusive && (cpus_free < use.node.cpus || gpus_free < use.node.gpus)) continue;
    NodeShare share{use.node.name, demand.exclusive ? use.node.cpus : cpus,
                    demand.exclusive ? use.node.gpus : demand.gpus};
    candidates.push_back({{gpus_free - share.gpus, cpus_free - share.cpus, i}, std::move(share)});
  }
  const auto wanted = static_cast<std::size_t>(std::max(demand.nodes, 1));
  if (candidates.size() < wanted) return std::nullopt;
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.fit < b.fit; });
  Placement placement;
  for (std::size_t i = 0; i < wanted; ++i) placement.push_back(candidates[i].share);
  return placement;
}

ClusterPlacement::NodeUse* ClusterPlacement::use_of(const std::string& node) {
  const auto it = std::find_if(nodes_.begin(), nodes_.end(), [&](const NodeUse& use) { return use.node.name == node; });
  return it == nodes_.end() ? nullptr : &*it;
}

void ClusterPlacement::take(const Placement& placement) {
  for (const auto& share : placement) {
    if (NodeUse* use = use_of(share.node)) {
      use->cpus_used += share.cpus;
      use->gpus_used += share.gpus;
    }
  }
}

void ClusterPlacement::give_back(const Placement& placement) {
  for (const auto& share : placement) {
    if (NodeUse* use = use_of(share.node)) {
      use->cpus_used = std::max(0, use->cpus_used - share.cpus);
      use->gpus_used = std::max(0, use->gpus_used - share.gpus);
    }
  }
}

}  // namespace tipc::run
