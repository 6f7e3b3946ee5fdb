// NVML without its header or CUDA: the few entry points tipc-run uses, declared as nvml.h
// declares them (their ABI is stable: versioned names such as _v2 never change), and looked
// up with dlsym. A missing optional entry point means that figure is not reported.
#include <dlfcn.h>

#include <array>

#include "run/gpu_driver.h"

namespace tipc::run {
namespace {

using Return = int;  // nvmlReturn_t; NVML_SUCCESS is 0
constexpr Return kSuccess = 0;
constexpr unsigned kTextSize = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE, NVML_DEVICE_UUID_V2_BUFFER_SIZE
constexpr unsigned long long kValueNotAvailable = ~0ULL;
using Device = struct NvmlDevice*;
struct Memory {
  unsigned long long total, free, used;
};
struct Utilization {
  unsigned int gpu, memory;
};
struct ProcessInfo {  // nvmlProcessInfo_t of the _v3 (and _v2) process queries
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id, compute_instance_id;
};

struct Api {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*count)(unsigned*) = nullptr;
  Return (*by_index)(unsigned, Device*) = nullptr;
  Return (*by_uuid)(const char*, Device*) = nullptr;
  Return (*name)(Device, char*, unsigned) = nullptr;
  Return (*uuid)(Device, char*, unsigned) = nullptr;
  Return (*mig_mode)(Device, unsigned*, unsigned*) = nullptr;
  Return (*mig_count)(Device, unsigned*) = nullptr;
  Return (*mig_by_index)(Device, unsigned, Device*) = nullptr;
  Return (*gpu_instance)(Device, unsigned*) = nullptr;
  Return (*compute_instance)(Device, unsigned*) = nullptr;
  Return (*memory)(Device, Memory*) = nullptr;
  Return (*utilization)(Device, Utilization*) = nullptr;
  Return (*power)(Device, unsigned*) = nullptr;
  Return (*throttle)(Device, unsigned long long*) = nullptr;
  Return (*processes)(Device, unsigned*, ProcessInfo*) = nullptr;
};

template <class F>
void bind(void* library, F& function, const char* name) {
  function = reinterpret_cast<F>(dlsym(library, name));
}

void bind_all(void* so, Api& api) {
  bind(so, api.init, "nvmlInit_v2");
  bind(so, api.shutdown, "nvmlShutdown");
  bind(so, api.count, "nvmlDeviceGetCount_v2");
  bind(so, api.by_index, "nvmlDeviceGetHandleByIndex_v2");
  bind(so, api.by_uuid, "nvmlDeviceGetHandleByUUID");
  bind(so, api.name, "nvmlDeviceGetName");
  bind(so, api.uuid, "nvmlDeviceGetUUID");
  bind(so, api.mig_mode, "nvmlDeviceGetMigMode");
  bind(so, api.mig_count, "nvmlDeviceGetMaxMigDeviceCount");
  bind(so, api.mig_by_index, "nvmlDeviceGetMigDeviceHandleByIndex");
  bind(so, api.gpu_instance, "nvmlDeviceGetGpuInstanceId");
  bind(so, api.compute_instance, "nvmlDeviceGetComputeInstanceId");
  bind(so, api.memory, "nvmlDeviceGetMemoryInfo");
  bind(so, api.utilization, "nvmlDeviceGetUtilizationRates");
  bind(so, api.power, "nvmlDeviceGetPowerUsage");
  bind(so, api.throttle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  bind(so, api.processes, "nvmlDeviceGetComputeRunningProcesses_v3");
  if (!api.processes) bind(so, api.processes, "nvmlDeviceGetComputeRunningProcesses_v2");
}

std::string text_of(Return (*get)(Device, char*, unsigned), Device device) {
  std::array<char, kTextSize> buffer{};
  if (!get || get(device, buffer.data(), kTextSize) != kSuccess) return "";
  buffer.back() = '\0';
  return buffer.data();
}

std::optional<int> id_of(Return (*get)(Device, unsigned*), Device device) {
  unsigned value = 0;
  if (!get || get(device, &value) != kSuccess) return std::nullopt;
  return static_cast<int>(value);
}

class NvmlDriver : public GpuDriver {
 public:
  NvmlDriver(void* library, Api api) : library_(library), api_(api) {}
  ~NvmlDriver() override {
    if (api_.shutdown) api_.shutdown();
    dlclose(library_);
  }
  NvmlDriver(const NvmlDriver&) = delete;
  NvmlDriver& operator=(const NvmlDriver&) = delete;

  GpuInventory inventory() override;
  std::optional<GpuSample> sample(const std::string& uuid) override;
  std::optional<std::vector<GpuProcess>> processes(const std::string& uuid) override;

 private:
  void add_mig_devices(Device gpu, const GpuDevice& parent, GpuInventory& inventory) const;
  std::optional<Device> device(const std::string& uuid) const;

  void* library_;
  Api api_;
};

GpuInventory NvmlDriver::inventory() {
  GpuInventory inventory{{}, "NVML"};
  unsigned count = 0;
  if (api_.count(&count) != kSuccess) return inventory;
  for (unsigned i = 0; i < count; ++i) {
    Device gpu = nullptr;
    if (api_.by_index(i, &gpu) != kSuccess) continue;
    const GpuDevice device{static_cast<int>(i), text_of(api_.name, gpu), text_of(api_.uuid, gpu), "", {}, {}};
    inventory.devices.push_back(device);
    add_mig_devices(gpu, device, inventory);
  }
  return inventory;
}

void NvmlDriver::add_mig_devices(Device gpu, const GpuDevice& parent, GpuInventory& inventory) const {
  unsigned current = 0, pending = 0, slots = 0;
  if (!api_.mig_mode || api_.mig_mode(gpu, &current, &pending) != kSuccess || current == 0) return;
  if (!api_.mig_count || !api_.mig_by_index || api_.mig_count(gpu, &slots) != kSuccess) return;
  for (unsigned i = 0; i < slots; ++i) {
    Device mig = nullptr;
    if (api_.mig_by_index(gpu, i, &mig) != kSuccess) continue;  // an empty slot
    inventory.devices.push_back({parent.index, text_of(api_.name, mig), text_of(api_.uuid, mig), parent.uuid,
                                 id_of(api_.gpu_instance, mig), id_of(api_.compute_instance, mig)});
  }
}

std::optional<Device> NvmlDriver::device(const std::string& uuid) const {
  Device handle = nullptr;
  if (!api_.by_uuid || api_.by_uuid(uuid.c_str(), &handle) != kSuccess) return std::nullopt;
  return handle;
}

std::optional<GpuSample> NvmlDriver::sample(const std::string& uuid) {
  const auto handle = device(uuid);
  if (!handle) return std::nullopt;
  GpuSample sample;
  Memory memory{};
  if (api_.memory && api_.memory(*handle, &memory) == kSuccess) sample.memory_used_mib = memory.used / 1048576.0;
  Utilization utilization{};
  if (api_.utilization && api_.utilization(*handle, &utilization) == kSuccess)
    sample.utilization_percent = utilization.gpu;
  unsigned milliwatts = 0;
  if (api_.power && api_.power(*handle, &milliwatts) == kSuccess) sample.power_watts = milliwatts / 1000.0;
  unsigned long long reasons = 0;
  if (api_.throttle && api_.throttle(*handle, &reasons) == kSuccess) sample.throttle_reasons = reasons;
  return sample;
}

std::optional<std::vector<GpuProcess>> NvmlDriver::processes(const std::string& uuid) {
  const auto handle = device(uuid);
  if (!handle || !api_.processes) return std::nullopt;
  std::array<ProcessInfo, 256> infos{};
  unsigned count = infos.size();
  if (api_.processes(*handle, &count, infos.data()) != kSuccess) return std::nullopt;
  std::vector<GpuProcess> list;
  for (unsigned i = 0; i < count && i < infos.size(); ++i) {
    const auto used = infos[i].used_gpu_memory;
    list.push_back({static_cast<int>(infos[i].pid), used == kValueNotAvailable ? 0 : used / 1048576.0});
  }
  return list;
}

}  // namespace

std::unique_ptr<GpuDriver> open_nvml(const std::string& library) {
  void* so = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!so) return nullptr;
  Api api;
  bind_all(so, api);
  if (!api.init || !api.count || !api.by_index || api.init() != kSuccess) {
    dlclose(so);
    return nullptr;
  }
  return std::make_unique<NvmlDriver>(so, api);
}

}  // namespace tipc::run
