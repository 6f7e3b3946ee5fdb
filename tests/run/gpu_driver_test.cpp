// The two ways to the NVIDIA driver against the fakes of tests/fake_nvml: NVML loaded from
// the fake libnvidia-ml.so.1, and nvidia-smi run as the fake script; both answer from the
// state file $FAKE_NVML_STATE, so they must agree.
#include "run/gpu_driver.h"

#include <unistd.h>

#include <cstdlib>
#include <ctime>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

constexpr const char* kGpu0 = "GPU-11111111-2222-3333-4444-555555555555";
constexpr const char* kGpu1 = "GPU-66666666-2222-3333-4444-555555555555";
constexpr const char* kMig = "MIG-77777777-2222-3333-4444-555555555555";

class GpuDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    state_ = dir_.write("state", fmt::format("gpu {} Fake H100 80GB HBM3\n"
                                             "gpu {} Fake A100-SXM4-40GB\n"
                                             "mig {} {} 2 0 MIG 3g.20gb\n"
                                             "process {} {} 3072\n"         // this test: alive
                                             "process {} 999999 1024 {}\n"  // ended, memory held a while
                                             "process {} 999998 512 1\n"    // ended, memory freed
                                             "sample {} 87 250 0000000000000005\n",
                                             kGpu0, kGpu1, kGpu1, kMig, kGpu0, getpid(), kGpu0,
                                             std::time(nullptr) + 600, kGpu0, kGpu0));
    setenv("FAKE_NVML_STATE", state_.c_str(), 1);
  }
  void TearDown() override { unsetenv("FAKE_NVML_STATE"); }
  static HelperRunner fake_nvidia_smi() {
    return [](const std::vector<std::string>& argv) {
      std::vector<std::string> fake = argv;
      fake[0] = test::fake_nvidia_smi_dir() + "/nvidia-smi";
      return run_command(fake);
    };
  }

  test::TempDir dir_;
  std::string state_;
};

TEST_F(GpuDriverTest, NvmlListsGpusAndMigDevicesWithTheirInstanceIds) {
  const auto nvml = open_nvml(test::fake_nvml_library());
  ASSERT_TRUE(nvml);
  const GpuInventory inventory = nvml->inventory();
  EXPECT_EQ(inventory.source, "NVML");
  ASSERT_EQ(inventory.devices.size(), 3u);
  EXPECT_EQ(inventory.devices[0], (GpuDevice{0, "Fake H100 80GB HBM3", kGpu0, "", {}, {}}));
  EXPECT_EQ(inventory.devices[2], (GpuDevice{1, "MIG 3g.20gb", kMig, kGpu1, 2, 0}));
}

TEST_F(GpuDriverTest, NvmlReadsMemoryUtilisationPowerThrottleAndProcesses) {
  const auto nvml = open_nvml(test::fake_nvml_library());
  ASSERT_TRUE(nvml);
  const auto sample = nvml->sample(kGpu0);
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->memory_used_mib, 3072 + 1024);
  EXPECT_EQ(sample->utilization_percent, 87);
  EXPECT_EQ(sample->power_watts, 250);
  EXPECT_EQ(sample->throttle_reasons, 5u);
  const auto processes = nvml->processes(kGpu0);
  ASSERT_TRUE(processes);
  EXPECT_EQ(*processes, (std::vector<GpuProcess>{{getpid(), 3072}, {999999, 1024}}));
  EXPECT_FALSE(nvml->sample("GPU-unknown"));
  EXPECT_FALSE(nvml->sample(kGpu1)->utilization_percent) << "no sample line: not reported, not 0";
}

TEST_F(GpuDriverTest, NvidiaSmiAgreesWithNvml) {
  const auto smi = open_nvidia_smi(fake_nvidia_smi());
  const auto nvml = open_nvml(test::fake_nvml_library());
  ASSERT_TRUE(smi);
  ASSERT_TRUE(nvml);
  const GpuInventory listed = smi->inventory();
  EXPECT_EQ(listed.source, "nvidia-smi -L");
  ASSERT_EQ(listed.devices.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(listed.devices[i].uuid, nvml->inventory().devices[i].uuid);
    EXPECT_EQ(listed.devices[i].name, nvml->inventory().devices[i].name);
  }
  const auto sample = smi->sample(kGpu0);
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->memory_used_mib, nvml->sample(kGpu0)->memory_used_mib);
  EXPECT_EQ(sample->utilization_percent, 87);
  EXPECT_EQ(sample->power_watts, 250);
  EXPECT_EQ(sample->throttle_reasons, 5u);
  EXPECT_EQ(smi->processes(kGpu0), nvml->processes(kGpu0));
  EXPECT_FALSE(smi->sample(kGpu1)->utilization_percent);
}

TEST_F(GpuDriverTest, NoDriverIsNoInventoryNeverAGuess) {
  EXPECT_FALSE(open_nvml((dir_.path() / "libnvidia-ml.so.1").string()));
  unsetenv("FAKE_NVML_STATE");
  EXPECT_FALSE(open_nvml(test::fake_nvml_library())) << "nvmlInit fails: no driver";
  EXPECT_FALSE(open_nvidia_smi(fake_nvidia_smi()));
  EXPECT_FALSE(open_nvidia_smi([](const std::vector<std::string>&) { return CommandOutcome{}; }));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
