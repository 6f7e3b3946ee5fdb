#include "run/gpu_devices.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "core/split_list.h"
#include "core/text.h"

namespace tipc::run {
namespace {

Gpu gpu_of(const std::string& id, const GpuDevice& device) { return {id, 1, device.index, device.name, device.uuid}; }

// What the driver shows, for messages: "GPUs 0-1 and 2 MIG devices (nvidia-smi -L)".
std::string shown(const GpuInventory& inventory) {
  const auto migs =
      std::count_if(inventory.devices.begin(), inventory.devices.end(), [](const GpuDevice& d) { return d.mig(); });
  const auto gpus = static_cast<long>(inventory.devices.size()) - migs;
  std::string text = gpus == 0 ? "no GPU" : gpus == 1 ? "GPU 0" : fmt::format("GPUs 0-{}", gpus - 1);
  if (migs > 0) text += fmt::format(" and {} MIG device{}", migs, migs == 1 ? "" : "s");
  return fmt::format("{} ({})", text, inventory.source);
}

// The devices whose UUID is `id` or starts with it (CUDA takes a unique prefix).
std::vector<const GpuDevice*> by_uuid(const std::string& id, const GpuInventory& inventory) {
  std::vector<const GpuDevice*> exact, prefixed;
  for (const GpuDevice& device : inventory.devices) {
    if (device.uuid == id)
      exact.push_back(&device);
    else if (device.uuid.rfind(id, 0) == 0)
      prefixed.push_back(&device);
  }
  return exact.empty() ? prefixed : exact;
}

// MIG-GPU-<uuid>/<gi>/<ci>: the MIG device of that GPU with those instance ids.
const GpuDevice* by_instances(const std::string& id, const GpuInventory& inventory) {
  static const std::regex kOldMig(R"(MIG-(GPU-[0-9a-fA-F-]+)/(\d+)/(\d+))");
  std::smatch m;
  if (!std::regex_match(id, m, kOldMig)) return nullptr;
  for (const GpuDevice& device : inventory.devices) {
    if (device.parent_uuid == m[1] && device.gpu_instance == std::stoi(m[2]) &&
        device.compute_instance == std::stoi(m[3])) {
      return &device;
    }
  }
  return nullptr;
}

Result<Gpu> resolve_index(const std::string& id, const std::string& what, const GpuInventory& inventory) {
  if (!inventory.has_driver()) return Gpu{id, 1, std::stoi(id.substr(0, 9)), "", ""};
  for (const GpuDevice& device : inventory.devices) {
    if (!device.mig() && std::to_string(device.index) == id) return gpu_of(id, device);
  }
  return fail(Error::plain(fmt::format("{}: there is no GPU {}; the driver shows {}", what, id, shown(inventory))));
}

Result<Gpu> resolve_uuid(const std::string& id, const std::string& what, const GpuInventory& inventory) {
  if (!inventory.has_driver()) {
    return fail(Error::plain(fmt::format(
        "{}: cannot resolve '{}': no NVIDIA driver answered (libnvidia-ml.so.1 not loadable, nvidia-smi not found)",
        what, id)));
  }
  if (const GpuDevice* device = by_instances(id, inventory)) return gpu_of(id, *device);
  const auto found = by_uuid(id, inventory);
  if (found.size() == 1) return gpu_of(id, *found.front());
  if (found.size() > 1)
    return fail(Error::plain(fmt::format("{}: '{}' is the start of {} UUIDs", what, id, found.size())));
  return fail(
      Error::plain(fmt::format("{}: no device has the UUID '{}'; the driver shows {}", what, id, shown(inventory))));
}

Result<Gpu> resolve_one(const std::string& id, const std::string& what, const GpuInventory& inventory) {
  if (all_digits(id)) return resolve_index(id, what, inventory);
  if (id.rfind("GPU-", 0) == 0 || id.rfind("MIG-", 0) == 0) return resolve_uuid(id, what, inventory);
  return fail(Error::plain(fmt::format("{}: '{}' is not a GPU index, GPU- UUID or MIG- UUID", what, id)));
}

// Two names of one device ("0" and its UUID) would let two stages share it unknowingly.
bool same_device(const Gpu& a, const Gpu& b) { return a.id == b.id || (!a.uuid.empty() && a.uuid == b.uuid); }

}  // namespace

std::vector<GpuDevice> parse_nvidia_smi_listing(const std::string& listing) {
  static const std::regex kGpu(R"(^GPU (\d+): (.*?) \(UUID: (GPU-[^)\s]+)\))");
  static const std::regex kMig(R"(^\s+(MIG .*?)\s+Device\s+\d+: \(UUID: (MIG-[^)\s]+)\))");
  std::vector<GpuDevice> devices;
  std::optional<GpuDevice> parent;  // the GPU line above a MIG line
  for (const auto& line : split_list(listing, '\n')) {
    std::smatch m;
    if (std::regex_search(line, m, kGpu)) {
      parent = GpuDevice{std::stoi(m[1].str().substr(0, 9)), m[2], m[3], "", std::nullopt, std::nullopt};
      devices.push_back(*parent);
    } else if (parent && std::regex_search(line, m, kMig)) {
      devices.push_back({parent->index, m[1], m[2], parent->uuid, std::nullopt, std::nullopt});
    }
  }
  return devices;
}

Result<std::vector<Gpu>> resolve_gpu_list(const std::vector<std::string>& ids, const std::string& what,
                                          const GpuInventory& inventory) {
  std::vector<Gpu> gpus;
  for (const auto& id : ids) {
    Gpu gpu = TRY(resolve_one(id, what, inventory));
    const auto twin = std::find_if(gpus.begin(), gpus.end(), [&](const Gpu& g) { return same_device(g, gpu); });
    if (twin != gpus.end()) {
      return fail(Error::plain(twin->id == id ? fmt::format("{}: GPU '{}' is listed twice", what, id)
                                              : fmt::format("{}: '{}' and '{}' are one device", what, twin->id, id)));
    }
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

std::vector<Gpu> every_gpu(const GpuInventory& inventory) {
  std::vector<Gpu> gpus;
  for (const GpuDevice& device : inventory.devices) {
    const bool split = std::any_of(inventory.devices.begin(), inventory.devices.end(),
                                   [&](const GpuDevice& d) { return d.parent_uuid == device.uuid; });
    if (device.mig())
      gpus.push_back(gpu_of(device.uuid, device));
    else if (!split)
      gpus.push_back(gpu_of(std::to_string(device.index), device));
  }
  return gpus;
}

std::string describe_gpu(const Gpu& gpu) {
  if (gpu.uuid.empty()) return fmt::format("GPU {}", gpu.id);
  const std::string index = gpu.index ? std::to_string(*gpu.index) : gpu.id;
  return fmt::format("GPU {} {} ({})", index, gpu.name, gpu.uuid);
}

}  // namespace tipc::run
