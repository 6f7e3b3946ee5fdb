#pragma once
// What the driver said about a stage's GPUs while it ran (issue 40): one reading of a GPU
// (GpuSample), and the figures a stage keeps of them (GpuFigures): peak memory, mean and
// peak utilisation, power, and the throttle reasons seen. A figure the driver does not report
// (utilisation of a MIG device, power on some boards) stays unset, never 0.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tipc::run {

struct GpuSample {
  std::optional<double> memory_used_mib;
  std::optional<double> utilization_percent;
  std::optional<double> power_watts;
  std::uint64_t throttle_reasons = 0;  // NVML's clocks-throttle-reason bits
};

// NVML's throttle-reason bits as words ("sw_power_cap", "hw_slowdown", ...); the idle bit,
// which only says the GPU had nothing to do, is left out.
std::vector<std::string> throttle_reason_names(std::uint64_t bits);

struct GpuFigures {
  int samples = 0;
  std::optional<double> memory_peak_mib;  // the highest reading of any of its GPUs
  std::optional<double> utilization_mean_percent;
  std::optional<double> utilization_peak_percent;
  std::optional<double> power_mean_watts;  // per GPU
  std::optional<double> power_peak_watts;
  std::vector<std::string> throttle_reasons;  // sorted, each once
  int utilization_samples = 0;                // behind the means while samples come in; not reported
  int power_samples = 0;

  bool empty() const { return samples == 0; }
  void add(const GpuSample& sample);
  // The reported figures alike (the counts behind the means are not kept in the journal).
  bool operator==(const GpuFigures& other) const;
};

}  // namespace tipc::run
