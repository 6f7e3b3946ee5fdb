#include "report/gpu_report.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tipc::report {
namespace {

constexpr std::size_t kShortUuidChars = 8;  // "GPU-9f8e", "MIG-1a2b"

std::string memory(double mib) {
  return mib < 1024 ? fmt::format("{:.0f} MiB", mib) : fmt::format("{:.1f} GiB", mib / 1024);
}

// "87 % (peak 100 %)", "250 W": a mean and, where there is one, its peak.
std::string with_peak(double mean, const std::optional<double>& peak, const char* unit) {
  const std::string text = fmt::format("{:.0f} {}", mean, unit);
  return peak ? text + fmt::format(" (peak {:.0f} {})", *peak, unit) : text;
}

bool described(const run::Gpu& gpu) { return !gpu.name.empty() || !gpu.uuid.empty(); }

}  // namespace

std::string gpu_figures_text(const run::GpuFigures& figures) {
  std::vector<std::string> parts;
  if (figures.memory_peak_mib) parts.push_back("peak " + memory(*figures.memory_peak_mib));
  if (figures.utilization_mean_percent) {
    parts.push_back("util " + with_peak(*figures.utilization_mean_percent, figures.utilization_peak_percent, "%"));
  }
  if (figures.power_mean_watts) parts.push_back(with_peak(*figures.power_mean_watts, figures.power_peak_watts, "W"));
  return fmt::format("{}", fmt::join(parts, " · "));
}

std::string throttle_text(const run::GpuFigures& figures) {
  if (figures.throttle_reasons.empty()) return "";
  return fmt::format("throttled: {}", fmt::join(figures.throttle_reasons, ", "));
}

std::string gpu_device_label(const run::Gpu& gpu, bool short_uuid) {
  std::string label = "GPU " + (gpu.index ? std::to_string(*gpu.index) : gpu.id);
  if (!gpu.name.empty()) label += " " + gpu.name;
  if (gpu.uuid.empty()) return label;
  const bool cut = short_uuid && gpu.uuid.size() > kShortUuidChars;
  return label + " (" + (cut ? gpu.uuid.substr(0, kShortUuidChars) + "…" : gpu.uuid) + ")";
}

std::vector<std::string> gpu_names(const std::vector<run::Gpu>& gpus, bool short_uuid) {
  const bool any_described = std::any_of(gpus.begin(), gpus.end(), described);
  std::vector<std::string> names;
  for (const run::Gpu& gpu : gpus) names.push_back(any_described ? gpu_device_label(gpu, short_uuid) : gpu.id);
  return names;
}

std::vector<run::Gpu> given_gpu_devices(const RunReport& report) {
  if (report.gpus.empty()) return report.gpu_devices;
  std::vector<run::Gpu> gpus;
  for (const std::string& id : report.gpus) {
    const auto same = [&](const run::Gpu& gpu) { return gpu.id == id; };
    const auto found = std::find_if(report.gpu_devices.begin(), report.gpu_devices.end(), same);
    gpus.push_back(found == report.gpu_devices.end() ? run::Gpu{id, 1, std::nullopt, "", ""} : *found);
  }
  return gpus;
}

std::vector<GpuWarningGroup> gpu_warning_groups(const RunReport& report) {
  std::vector<GpuWarningGroup> groups;
  for (const PlanReport& plan : report.plans) {
    for (const StageReport& stage : plan.stages) {
      for (const std::string& warning : stage.gpu_warnings) {
        const auto same = [&](const GpuWarningGroup& group) { return group.warning == warning; };
        auto group = std::find_if(groups.begin(), groups.end(), same);
        if (group == groups.end()) group = groups.insert(groups.end(), {warning, {}});
        group->stages.emplace_back(&plan, &stage);
      }
    }
  }
  return groups;
}

}  // namespace tipc::report
