#pragma once
// The GPUs the NVIDIA driver shows (NVML, or `nvidia-smi -L`), and the resolution of a device
// list as CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES or --gpus hold it: indices, GPU UUIDs
// (`GPU-…`, or a unique prefix of one, as CUDA takes it) and MIG devices (`MIG-…`, or the
// older `MIG-GPU-<uuid>/<gi>/<ci>`). Pure: the driver's answer comes in as a GpuInventory.
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "run/resources.h"

namespace tipc::run {

struct GpuDevice {
  int index = 0;     // the physical GPU's; a MIG device has its parent's
  std::string name;  // "NVIDIA H100 80GB HBM3", "MIG 1g.10gb"
  std::string uuid;  // GPU-… or MIG-…
  // A MIG device: its parent GPU's UUID and, where NVML says them, its GPU and compute
  // instance ids (the older MIG-GPU-<uuid>/<gi>/<ci> names it by those).
  std::string parent_uuid;
  std::optional<int> gpu_instance;
  std::optional<int> compute_instance;
  bool mig() const { return !parent_uuid.empty(); }
  bool operator==(const GpuDevice&) const = default;
};

struct GpuInventory {
  std::vector<GpuDevice> devices;
  std::string source;  // "NVML", "nvidia-smi -L"; "" when no driver answered
  bool has_driver() const { return !source.empty(); }
};

// `nvidia-smi -L`: "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-…)" and, below a GPU in MIG
// mode, "  MIG 1g.10gb     Device  0: (UUID: MIG-…)".
std::vector<GpuDevice> parse_nvidia_smi_listing(const std::string& listing);

// The devices of a list, each as the user named it (Gpu::id, which its stages get) with what
// the driver says it is. Without a driver an index is taken on trust (there is nothing to ask)
// and a UUID is an error; with one, a name the driver does not show is an error. `what` names
// the list's source in messages ("CUDA_VISIBLE_DEVICES", "--gpus").
Result<std::vector<Gpu>> resolve_gpu_list(const std::vector<std::string>& ids, const std::string& what,
                                          const GpuInventory& inventory);

// The GPUs a stage may be given when nothing names them: each GPU the driver shows by its
// index, and a GPU in MIG mode by its MIG devices' UUIDs instead.
std::vector<Gpu> every_gpu(const GpuInventory& inventory);

// "GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e…)": for messages and the console.
std::string describe_gpu(const Gpu& gpu);

}  // namespace tipc::run
