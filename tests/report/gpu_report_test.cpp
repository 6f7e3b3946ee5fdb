// What the reports say of GPUs: a stage's figures in words, and the GPUs a run used as the driver described them.
#include "report/gpu_report.h"

#include <gtest/gtest.h>

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

run::Gpu gpu(const std::string& id, std::optional<int> index = std::nullopt, const std::string& name = "",
             const std::string& uuid = "") {
  return {id, 1, index, name, uuid};
}

run::GpuFigures h100_figures() {
  run::GpuFigures figures;
  figures.samples = 12;
  figures.memory_peak_mib = 10444.8;
  figures.utilization_mean_percent = 87.4;
  figures.utilization_peak_percent = 100;
  figures.power_mean_watts = 250.2;
  figures.power_peak_watts = 301;
  figures.throttle_reasons = {"hw_slowdown", "sw_power_cap"};
  return figures;
}

TEST(GpuReport, FiguresReadAsMemoryUtilisationAndPowerWithTheirPeaks) {
  EXPECT_EQ(gpu_figures_text(h100_figures()), "peak 10.2 GiB · util 87 % (peak 100 %) · 250 W (peak 301 W)");
  EXPECT_EQ(throttle_text(h100_figures()), "throttled: hw_slowdown, sw_power_cap");
  // A MIG device reports neither utilisation nor power: only what the driver gave is said.
  run::GpuFigures mig;
  mig.samples = 3;
  mig.memory_peak_mib = 900;
  EXPECT_EQ(gpu_figures_text(mig), "peak 900 MiB");
  EXPECT_EQ(throttle_text(mig), "");
  EXPECT_EQ(gpu_figures_text({}), "");
}

TEST(GpuReport, ADeviceIsNamedByItsIndexNameAndUuidWholeOrShort) {
  const run::Gpu h100 = gpu("GPU-9f8e7d6c-1111-2222-3333-444455556666", 0, "NVIDIA H100 80GB HBM3",
                            "GPU-9f8e7d6c-1111-2222-3333-444455556666");
  EXPECT_EQ(gpu_device_label(h100, true), "GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e…)");
  EXPECT_EQ(gpu_device_label(h100, false), "GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e7d6c-1111-2222-3333-444455556666)");
  const run::Gpu mig =
      gpu("MIG-5a4b3c2d-0000-1111-2222-333344445555", 1, "MIG 1g.10gb", "MIG-5a4b3c2d-0000-1111-2222-333344445555");
  EXPECT_EQ(gpu_device_label(mig, true), "GPU 1 MIG 1g.10gb (MIG-5a4b…)");  // its parent's index
  EXPECT_EQ(gpu_device_label(gpu("3"), true), "GPU 3");
}

TEST(GpuReport, GpusAreNamedByTheirLabelsWhereTheDriverDescribedAnyElseByTheirIds) {
  const std::vector<run::Gpu> ids{gpu("0"), gpu("1")};
  EXPECT_EQ(gpu_names(ids, true), (std::vector<std::string>{"0", "1"}));
  const std::vector<run::Gpu> described{gpu("0", 0, "Tesla T4", "GPU-aaaabbbb-cccc"), gpu("7")};
  EXPECT_EQ(gpu_names(described, true), (std::vector<std::string>{"GPU 0 Tesla T4 (GPU-aaaa…)", "GPU 7"}));
}

TEST(GpuReport, TheGivenGpusOfARunCarryWhatTheDriverSaidOfThem) {
  RunReport run;
  run.gpus = {"0", "1"};
  run.gpu_devices = {gpu("1", 1, "Tesla T4", "GPU-1111")};
  const auto gpus = given_gpu_devices(run);
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0], gpu("0"));
  EXPECT_EQ(gpus[1].name, "Tesla T4");
  run.gpus.clear();  // a report.json of a run that recorded devices alone
  EXPECT_EQ(given_gpu_devices(run), run.gpu_devices);
}

TEST(GpuReport, AWarningSeveralStagesHadIsOneGroupInTheOrderFirstSeen) {
  RunReport run;
  run.plans.resize(1);
  auto& stages = run.plans[0].stages;
  stages.resize(3);
  stages[0].gpu_warnings = {"held by pid 1"};
  stages[1].gpu_warnings = {"previous stage's memory", "held by pid 1"};
  const auto groups = gpu_warning_groups(run);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].warning, "held by pid 1");
  ASSERT_EQ(groups[0].stages.size(), 2u);
  EXPECT_EQ(groups[0].stages[0].second, &stages[0]);
  EXPECT_EQ(groups[0].stages[1].second, &stages[1]);
  EXPECT_EQ(groups[0].stages[1].first, &run.plans[0]);
  EXPECT_EQ(groups[1].warning, "previous stage's memory");
  EXPECT_TRUE(gpu_warning_groups(RunReport{}).empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
