#pragma once
// What the reports say of GPUs (issue 40): a stage's figures as the driver gave them
// (run/gpu_figures.h), under the keys report.json and junit.xml name them by and in words
// ("peak 10.2 GiB · util 87 % (peak 100 %) · 250 W (peak 300 W)"), and the GPUs a run used
// as the driver described them ("GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e…)").
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/run_report.h"
#include "run/gpu_figures.h"
#include "run/resources.h"

namespace tipc::report {

// A figure of run::GpuFigures by its key: report.json's "gpu" object and the journal's name it
// so, junit.xml's property is "gpu_" + key. In the order they are written.
struct GpuFigureField {
  const char* key;
  std::optional<double> run::GpuFigures::*value;
};
inline constexpr std::array<GpuFigureField, 5> kGpuFigureFields{{
    {"memory_peak_mib", &run::GpuFigures::memory_peak_mib},
    {"utilization_mean_percent", &run::GpuFigures::utilization_mean_percent},
    {"utilization_peak_percent", &run::GpuFigures::utilization_peak_percent},
    {"power_mean_watts", &run::GpuFigures::power_mean_watts},
    {"power_peak_watts", &run::GpuFigures::power_peak_watts},
}};

// "peak 10.2 GiB · util 87 % (peak 100 %) · 250 W (peak 300 W)": the figures the driver gave,
// memory in GiB from 1 GiB on (MiB below); "" when it gave none.
std::string gpu_figures_text(const run::GpuFigures& figures);

// "throttled: hw_slowdown, sw_power_cap"; "" when the driver reported no throttling.
std::string throttle_text(const run::GpuFigures& figures);

// "GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e7d6c-...)", as the driver described it: its UUID whole,
// or with `short_uuid` its first 8 characters and "…" (enough to tell a machine's GPUs
// apart). A GPU without an index is named by the id the user gave.
std::string gpu_device_label(const run::Gpu& gpu, bool short_uuid);

// How the reports' headers and the console name the GPUs a run was given: each by its
// gpu_device_label where the driver described any of them, else by the ids the user gave
// ("0", "1"), as without a driver.
std::vector<std::string> gpu_names(const std::vector<run::Gpu>& gpus, bool short_uuid);

// The GPUs `report`'s run was given (its ids), each with what the driver said of it
// (RunReport::gpu_devices).
std::vector<run::Gpu> given_gpu_devices(const RunReport& report);

// A GPU warning and the stages that had it, in the order first seen: a process holding a GPU
// all run long is one warning of many stages.
struct GpuWarningGroup {
  std::string warning;
  std::vector<std::pair<const PlanReport*, const StageReport*>> stages;
};
std::vector<GpuWarningGroup> gpu_warning_groups(const RunReport& report);

}  // namespace tipc::report
