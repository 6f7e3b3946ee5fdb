#pragma once
// The GPUs a run may use (CTest's resource spec model) and the pure all-or-nothing
// allocation of a stage's needs.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace tipc::run {

struct Gpu {
  std::string id;  // physical id as CUDA_VISIBLE_DEVICES names it
  int slots = 1;   // how many stages may share it at once
};

struct ResourceSpec {
  std::vector<Gpu> gpus;
  std::string source;  // where it came from, for messages ("--gpus", a file, "nvidia-smi -L", "none")
};

// One machine of such a cluster, as sinfo lists it.
struct ClusterNode {
  std::string name;
  int cpus = 0;
  int gpus = 0;
};

// What a cluster that allocates machines itself offers (Slurm's sinfo): a stage needing
// more cannot run there.
struct ClusterCapacity {
  int nodes = 0;
  int max_gpus_per_node = 0;
  std::string source;  // for messages: "slurm partition debug (sinfo)"
  int cpus = 0;        // of all its nodes together
  std::vector<ClusterNode> each_node;  // in sinfo's order
};

// `--gpus 0,1,2,3`; `none` or `-1`: no GPU
Result<ResourceSpec> parse_gpu_list(const std::string& list);

// A resource-spec file, YAML or JSON (JSON is YAML), CTest-style:
//   {"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}]}]}
// or the short form {"gpus": [{"id": "0", "slots": 2}, "1"]}.
Result<ResourceSpec> load_resource_spec(const std::string& path);

// CUDA_VISIBLE_DEVICES if set (empty or -1: no GPU), else the lines of `nvidia-smi -L`, else none.
ResourceSpec detect_gpus(const std::optional<std::string>& cuda_visible_devices,
                         const std::string& nvidia_smi_listing);

// Slots in use per GPU id.
using Usage = std::map<std::string, int>;

// Picks `count` distinct GPUs with a free slot (all or nothing), preferring the
// least used and then spec order; nullopt when they are not free now.
std::optional<std::vector<std::string>> allocate(const ResourceSpec& spec, const Usage& usage, int count);

// Whether `count` GPUs could ever be allocated at once.
bool can_ever_fit(const ResourceSpec& spec, int count);

// Maps the plan's logical CUDA_VISIBLE_DEVICES ("0,1") onto the allocated physical ids, by position.
std::string map_devices(const std::string& logical, const std::vector<std::string>& allocated);

}  // namespace tipc::run
