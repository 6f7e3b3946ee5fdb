// A fake libnvidia-ml.so.1 for the tests (issue 40): the NVML entry points tipc-run loads
// (src/run/nvml_driver.cpp), answered from a text file named by $FAKE_NVML_STATE and read
// again at every call, so a test (or a stage it runs) changes the driver's answers as it goes:
//
//   gpu <uuid> <name ...>                        a GPU; its index is its place among the gpu lines
//   mig <parent uuid> <uuid> <gi> <ci> <name ...> a MIG device of that GPU (its MIG mode is then on)
//   process <uuid> <pid> <MiB> [<until>]          a process holding memory on a device: while the
//                                                pid lives, or until that Unix time (memory the
//                                                driver releases late)
//   sample <uuid> <util %> <watts> <throttle bits in hex>
//   memory <uuid> <MiB>                           memory in use besides the processes' (the last line counts)
//
// A device's used memory is what its live processes hold, plus its memory line. No state file: nvmlInit fails.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6, kInsufficientSize = 7,
              kUninitialized = 1;

struct Device {
  std::string uuid, name, parent;
  unsigned gi = 0, ci = 0;
};
struct Process {
  std::string uuid;
  unsigned pid = 0;
  unsigned long long mib = 0;
  double until = 0;
};
struct Sample {
  std::string uuid;
  unsigned util = 0, watts = 0;
  unsigned long long throttle = 0;
};
struct State {
  std::map<std::string, unsigned long long> memory_mib;  // by uuid: the memory lines
  std::vector<Device> devices;                           // GPUs and MIG devices, in file order
  std::vector<Process> processes;
  std::vector<Sample> samples;
};

std::string rest_of(std::istringstream& in) {
  std::string rest;
  std::getline(in >> std::ws, rest);
  return rest;
}

bool read_state(State& state) {
  const char* path = std::getenv("FAKE_NVML_STATE");
  std::ifstream file(path ? path : "");
  if (!file) return false;
  for (std::string line; std::getline(file, line);) {
    std::istringstream in(line);
    std::string kind;
    in >> kind;
    if (kind == "gpu") {
      Device d;
      in >> d.uuid;
      d.name = rest_of(in);
      state.devices.push_back(d);
    } else if (kind == "mig") {
      Device d;
      in >> d.parent >> d.uuid >> d.gi >> d.ci;
      d.name = rest_of(in);
      state.devices.push_back(d);
    } else if (kind == "process") {
      Process p;
      in >> p.uuid >> p.pid >> p.mib >> p.until;
      state.processes.push_back(p);
    } else if (kind == "memory") {
      std::string uuid;
      in >> uuid >> state.memory_mib[uuid];
    } else if (kind == "sample") {
      Sample s;
      in >> s.uuid >> s.util >> s.watts >> std::hex >> s.throttle;
      state.samples.push_back(s);
    }
  }
  return true;
}

bool alive(const Process& p) {
  if (p.until > 0) return static_cast<double>(std::time(nullptr)) < p.until;
  if (kill(static_cast<pid_t>(p.pid), 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(p.pid) + "/stat");
  std::string pid, comm, status;
  stat >> pid >> comm >> status;
  return status != "Z";
}

// Handles are 1 + the device's place in the state file.
using Handle = void*;
Handle handle_of(std::size_t k) { return reinterpret_cast<Handle>(k + 1); }
const Device* device_of(const State& state, Handle h) {
  const auto k = reinterpret_cast<std::size_t>(h);
  return k >= 1 && k <= state.devices.size() ? &state.devices[k - 1] : nullptr;
}

int copy_text(const std::string& text, char* out, unsigned size) {
  if (text.size() + 1 > size) return kInsufficientSize;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return kSuccess;
}

bool initialised = false;

}  // namespace

extern "C" {

int nvmlInit_v2() {
  State state;
  initialised = read_state(state);
  return initialised ? kSuccess : kUninitialized;
}
int nvmlShutdown() {
  initialised = false;
  return kSuccess;
}
int nvmlDeviceGetCount_v2(unsigned* count) {
  State state;
  read_state(state);
  *count = 0;
  for (const auto& d : state.devices) *count += d.parent.empty() ? 1 : 0;
  return kSuccess;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, Handle* out) {
  State state;
  read_state(state);
  unsigned seen = 0;
  for (std::size_t k = 0; k < state.devices.size(); ++k) {
    if (!state.devices[k].parent.empty()) continue;
    if (seen++ == index) {
      *out = handle_of(k);
      return kSuccess;
    }
  }
  return kInvalidArgument;
}
int nvmlDeviceGetHandleByUUID(const char* uuid, Handle* out) {
  State state;
  read_state(state);
  for (std::size_t k = 0; k < state.devices.size(); ++k) {
    if (state.devices[k].uuid == uuid) {
      *out = handle_of(k);
      return kSuccess;
    }
  }
  return kNotFound;
}
int nvmlDeviceGetName(Handle h, char* out, unsigned size) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  return d ? copy_text(d->name, out, size) : kInvalidArgument;
}
int nvmlDeviceGetUUID(Handle h, char* out, unsigned size) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  return d ? copy_text(d->uuid, out, size) : kInvalidArgument;
}
int nvmlDeviceGetMigMode(Handle h, unsigned* current, unsigned* pending) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  if (!d) return kInvalidArgument;
  *current = *pending = 0;
  for (const auto& other : state.devices) {
    if (other.parent == d->uuid) *current = *pending = 1;
  }
  return kSuccess;
}
int nvmlDeviceGetMaxMigDeviceCount(Handle, unsigned* count) {
  *count = 7;
  return kSuccess;
}
int nvmlDeviceGetMigDeviceHandleByIndex(Handle h, unsigned index, Handle* out) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  if (!d) return kInvalidArgument;
  unsigned seen = 0;
  for (std::size_t k = 0; k < state.devices.size(); ++k) {
    if (state.devices[k].parent == d->uuid && seen++ == index) {
      *out = handle_of(k);
      return kSuccess;
    }
  }
  return kNotFound;
}
int instance_id(Handle h, unsigned* id, unsigned Device::*which) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  if (!d || d->parent.empty()) return kNotSupported;
  *id = d->*which;
  return kSuccess;
}
int nvmlDeviceGetGpuInstanceId(Handle h, unsigned* id) { return instance_id(h, id, &Device::gi); }
int nvmlDeviceGetComputeInstanceId(Handle h, unsigned* id) { return instance_id(h, id, &Device::ci); }
struct Memory {
  unsigned long long total, free, used;
};
int nvmlDeviceGetMemoryInfo(Handle h, Memory* memory) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  if (!d) return kInvalidArgument;
  memory->used = state.memory_mib.count(d->uuid) ? state.memory_mib.at(d->uuid) << 20 : 0;
  for (const auto& p : state.processes) {
    if (p.uuid == d->uuid && alive(p)) memory->used += p.mib << 20;
  }
  memory->total = 80ULL << 30;
  memory->free = memory->total - memory->used;
  return kSuccess;
}
const Sample* sample_of(Handle h) {
  static State state;
  state = State{};
  read_state(state);
  const Device* d = device_of(state, h);
  const Sample* found = nullptr;
  for (const auto& s : state.samples) {
    if (d && s.uuid == d->uuid) found = &s;  // the last line counts
  }
  return found;
}
struct Utilization {
  unsigned gpu, memory;
};
int nvmlDeviceGetUtilizationRates(Handle h, Utilization* out) {
  const Sample* s = sample_of(h);
  if (!s) return kNotSupported;
  out->gpu = s->util;
  out->memory = 0;
  return kSuccess;
}
int nvmlDeviceGetPowerUsage(Handle h, unsigned* milliwatts) {
  const Sample* s = sample_of(h);
  if (!s) return kNotSupported;
  *milliwatts = s->watts * 1000;
  return kSuccess;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(Handle h, unsigned long long* reasons) {
  const Sample* s = sample_of(h);
  if (!s) return kNotSupported;
  *reasons = s->throttle;
  return kSuccess;
}
struct ProcessInfo {
  unsigned pid;
  unsigned long long used;
  unsigned gi, ci;
};
int nvmlDeviceGetComputeRunningProcesses_v3(Handle h, unsigned* count, ProcessInfo* infos) {
  State state;
  read_state(state);
  const Device* d = device_of(state, h);
  if (!d) return kInvalidArgument;
  unsigned n = 0;
  for (const auto& p : state.processes) {
    if (p.uuid != d->uuid || !alive(p)) continue;
    if (n < *count) infos[n] = {p.pid, p.mib << 20, 0, 0};
    ++n;
  }
  const bool fits = n <= *count;
  *count = n;
  return fits ? kSuccess : kInsufficientSize;
}

}  // extern "C"
