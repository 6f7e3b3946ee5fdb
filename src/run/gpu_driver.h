#pragma once
// The NVIDIA driver as tipc-run asks it (issue 40): which devices there are, one reading of a
// device (memory, utilisation, power, throttle reasons), and the processes holding memory on
// it. NVML is loaded at run time (dlopen of libnvidia-ml.so.1), so building needs no CUDA and a
// machine without a driver simply has none; `nvidia-smi` is the fallback. Tests load a fake
// library and put a fake nvidia-smi first on PATH (tests/fakes/).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/command.h"
#include "run/gpu_devices.h"
#include "run/gpu_figures.h"

namespace tipc::run {

// A compute process on a device, as the driver lists it. Its pid is in the driver's (the
// host's) pid namespace.
struct GpuProcess {
  int pid = 0;
  double used_mib = 0;
  bool operator==(const GpuProcess&) const = default;
};

class GpuDriver {
 public:
  virtual ~GpuDriver() = default;
  virtual GpuInventory inventory() = 0;
  // Devices are named by UUID (GpuDevice::uuid). nullopt: the driver cannot say now.
  virtual std::optional<GpuSample> sample(const std::string& uuid) = 0;
  virtual std::optional<std::vector<GpuProcess>> processes(const std::string& uuid) = 0;
};

using HelperRunner = std::function<CommandOutcome(const std::vector<std::string>&)>;

// NVML from `library` (nullptr when it cannot be loaded or initialised).
std::unique_ptr<GpuDriver> open_nvml(const std::string& library = "libnvidia-ml.so.1");
// `nvidia-smi` through `run` (nullptr when `nvidia-smi -L` does not answer).
std::unique_ptr<GpuDriver> open_nvidia_smi(HelperRunner run);
// NVML, else nvidia-smi, else nullptr (no driver: no GPU can be resolved or watched).
std::unique_ptr<GpuDriver> open_gpu_driver(HelperRunner run);

}  // namespace tipc::run
