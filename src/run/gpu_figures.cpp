#include "run/gpu_figures.h"

#include <algorithm>
#include <array>
#include <utility>

namespace tipc::run {
namespace {

// nvml.h's nvmlClocksThrottleReason* values.
constexpr std::array<std::pair<std::uint64_t, const char*>, 8> kThrottleReasons{{
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
}};

void add_to_mean(std::optional<double>& mean, int& count, double value) {
  mean = (mean.value_or(0) * count + value) / (count + 1);
  ++count;
}

void raise_peak(std::optional<double>& peak, double value) { peak = std::max(peak.value_or(value), value); }

}  // namespace

std::vector<std::string> throttle_reason_names(std::uint64_t bits) {
  std::vector<std::string> names;
  for (const auto& [bit, name] : kThrottleReasons) {
    if (bits & bit) names.emplace_back(name);
  }
  return names;
}

void GpuFigures::add(const GpuSample& sample) {
  ++samples;
  if (sample.memory_used_mib) raise_peak(memory_peak_mib, *sample.memory_used_mib);
  if (sample.utilization_percent) {
    add_to_mean(utilization_mean_percent, utilization_samples, *sample.utilization_percent);
    raise_peak(utilization_peak_percent, *sample.utilization_percent);
  }
  if (sample.power_watts) {
    add_to_mean(power_mean_watts, power_samples, *sample.power_watts);
    raise_peak(power_peak_watts, *sample.power_watts);
  }
  for (auto& name : throttle_reason_names(sample.throttle_reasons)) {
    if (std::find(throttle_reasons.begin(), throttle_reasons.end(), name) == throttle_reasons.end()) {
      throttle_reasons.push_back(std::move(name));
    }
  }
  std::sort(throttle_reasons.begin(), throttle_reasons.end());
}

bool GpuFigures::operator==(const GpuFigures& other) const {
  return samples == other.samples && memory_peak_mib == other.memory_peak_mib &&
         utilization_mean_percent == other.utilization_mean_percent &&
         utilization_peak_percent == other.utilization_peak_percent && power_mean_watts == other.power_mean_watts &&
         power_peak_watts == other.power_peak_watts && throttle_reasons == other.throttle_reasons;
}

}  // namespace tipc::run
