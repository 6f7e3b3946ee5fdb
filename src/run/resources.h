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
  std::string id;  // as the user named it (index, GPU-/MIG- UUID): the stages' CUDA_VISIBLE_DEVICES
  int slots = 1;   // how many stages may share it at once
  // What the driver says it is (run/gpu_devices.h); unset and "" where no driver was asked.
  std::optional<int> index = std::nullopt;  // nvidia-smi's; a MIG device has its parent's
  std::string name = "";                    // "NVIDIA H100 80GB HBM3", "MIG 1g.10gb"
  std::string uuid = "";                    // GPU-... or MIG-...
  bool operator==(const Gpu&) const = default;
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
  std::string source;                  // for messages: "slurm partition debug (sinfo)"
  int cpus = 0;                        // of all its nodes together
  std::vector<ClusterNode> each_node;  // in sinfo's order
};

struct GpuInventory;  // run/gpu_devices.h: what the driver shows

// `--gpus 0,1,2,3`, or UUIDs and MIG devices (run/gpu_devices.h); `none`, `-1` or "": no GPU.
Result<ResourceSpec> parse_gpu_list(const std::string& list, const GpuInventory& inventory);

// A resource-spec file, YAML or JSON (JSON is YAML), CTest-style:
//   {"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}]}]}
// or the short form {"gpus": [{"id": "0", "slots": 2}, "1"]}.
// Its ids are resolved as --gpus's are.
Result<ResourceSpec> load_resource_spec(const std::string& path, const GpuInventory& inventory);

// The device variables of tipc-run's environment.
struct DeviceVariables {
  std::optional<std::string> cuda_visible_devices;
  std::optional<std::string> nvidia_visible_devices;  // the NVIDIA container runtime's
};

// CUDA_VISIBLE_DEVICES if set (empty or -1: no GPU); else NVIDIA_VISIBLE_DEVICES (`all`: what
// the driver shows; `none`, `void`, "": no GPU; a list: the GPUs the container runtime made
// visible, which the driver shows renumbered from 0, so their count must match); else every
// GPU the driver shows. A name that cannot be resolved is an error, never "no GPU".
Result<ResourceSpec> detect_gpus(const DeviceVariables& variables, const GpuInventory& inventory);

// --expect-gpus: fewer GPUs than `count` is an error that says what was found and from where.
Result<void> expect_gpus(const ResourceSpec& spec, int count);
// The same of a cluster: the GPUs of all its nodes together.
Result<void> expect_cluster_gpus(const ClusterCapacity& cluster, int count);

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
