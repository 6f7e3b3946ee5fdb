#include "run/resources.h"

#include <gtest/gtest.h>

#include "run/gpu_devices.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

using Ids = std::vector<std::string>;

const GpuInventory kNoDriver{};

// Two GPUs, the second in MIG mode with two MIG devices, as NVML describes them.
GpuInventory two_gpus() {
  return {
      {{0, "NVIDIA H100 80GB HBM3", "GPU-9f8e7d6c-0000-1111-2222-333344445555", "", {}, {}},
       {1, "NVIDIA H100 80GB HBM3", "GPU-1a2b3c4d-0000-1111-2222-333344445555", "", {}, {}},
       {1, "MIG 3g.40gb", "MIG-aaaa1111-0000-1111-2222-333344445555", "GPU-1a2b3c4d-0000-1111-2222-333344445555", 1, 0},
       {1, "MIG 3g.40gb", "MIG-bbbb2222-0000-1111-2222-333344445555", "GPU-1a2b3c4d-0000-1111-2222-333344445555", 2,
        0}},
      "NVML"};
}

TEST(Resources, GpuListParses) {
  const auto spec = parse_gpu_list("0,1,3", kNoDriver);
  ASSERT_TRUE(spec);
  ASSERT_EQ(spec->gpus.size(), 3u);
  EXPECT_EQ(spec->gpus[2].id, "3");
  EXPECT_FALSE(parse_gpu_list("0,0", kNoDriver));
  EXPECT_FALSE(parse_gpu_list("0;1", kNoDriver));
  EXPECT_TRUE(parse_gpu_list("", kNoDriver)->gpus.empty());
  EXPECT_TRUE(parse_gpu_list("none", kNoDriver)->gpus.empty());
}

TEST(Resources, SpecFileInCTestAndShortForms) {
  test::TempDir dir;
  const auto ctest = load_resource_spec(
      dir.write(
          "spec.json",
          R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}, {"id": "1"}]}]})"),
      kNoDriver);
  ASSERT_TRUE(ctest) << ctest.error().str();
  EXPECT_EQ(ctest->gpus[0].slots, 2);
  EXPECT_EQ(ctest->gpus[1].slots, 1);
  const auto yaml = load_resource_spec(
      dir.write("spec.yaml", "gpus:\n  - {id: 0, slots: 1}\n  - GPU-1a2b3c4d\n  - MIG-bbbb2222\n"), two_gpus());
  ASSERT_TRUE(yaml) << yaml.error().str();
  EXPECT_EQ(yaml->gpus[1].id, "GPU-1a2b3c4d");
  EXPECT_EQ(yaml->gpus[1].uuid, "GPU-1a2b3c4d-0000-1111-2222-333344445555");
  EXPECT_EQ(yaml->gpus[2].name, "MIG 3g.40gb");
  const auto unknown = load_resource_spec(dir.write("unknown.yaml", "gpus:\n  - 0\n  - GPU-feed\n"), two_gpus());
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().str().find("unknown.yaml:3: key 'id': gpus: no device has the UUID 'GPU-feed'"),
            std::string::npos)
      << unknown.error().str();
  const auto twice = load_resource_spec(dir.write("twice.yaml", "gpus:\n  - 0\n  - 0\n"), kNoDriver);
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().str().find("twice.yaml:3: key 'id': GPU '0' is listed twice"), std::string::npos)
      << twice.error().str();
  EXPECT_FALSE(load_resource_spec(dir.write("none.yaml", "cpus: 4\n"), kNoDriver));
  const auto zero =
      load_resource_spec(dir.write("zero.yaml", "gpus:\n  - {id: 0, slots: 0}\n  - {id: 1, slot: 2}\n"), kNoDriver);
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().str().find("zero.yaml:2: key 'slots': slots must be at least 1"), std::string::npos)
      << zero.error().str();
  EXPECT_NE(zero.error().str().find("zero.yaml:3: key 'slot': unknown key in a GPU"), std::string::npos)
      << zero.error().str();
  EXPECT_FALSE(load_resource_spec((dir.path() / "missing.yaml").string(), kNoDriver));
}

DeviceVariables cuda(const std::string& value) { return {value, std::nullopt}; }
DeviceVariables container(const std::string& value) { return {std::nullopt, value}; }

TEST(Resources, DetectionPrefersCudaVisibleDevices) {
  EXPECT_EQ(detect_gpus(cuda("2,3"), kNoDriver)->gpus.size(), 2u);
  EXPECT_TRUE(detect_gpus(cuda(""), two_gpus())->gpus.empty());
  EXPECT_TRUE(detect_gpus(cuda("-1"), kNoDriver)->gpus.empty());
  const GpuInventory smi{
      parse_nvidia_smi_listing("GPU 0: NVIDIA H100 (UUID: GPU-1)\nGPU 1: NVIDIA H100 (UUID: GPU-2)\n"),
      "nvidia-smi -L"};
  const auto found = detect_gpus({}, smi);
  EXPECT_EQ(found->gpus.size(), 2u);
  EXPECT_EQ(found->source, "nvidia-smi -L");
  EXPECT_EQ(detect_gpus({}, kNoDriver)->source, "none");
}

TEST(Resources, UuidsAndMigDevicesResolveToTheDevicesTheDriverShowsKeepingTheUsersForm) {
  const auto spec = detect_gpus(cuda("GPU-9f8e7d6c-0000-1111-2222-333344445555,MIG-aaaa1111"), two_gpus());
  ASSERT_TRUE(spec) << spec.error().str();
  ASSERT_EQ(spec->gpus.size(), 2u);
  EXPECT_EQ(spec->gpus[0].id, "GPU-9f8e7d6c-0000-1111-2222-333344445555");
  EXPECT_EQ(spec->gpus[0].index, 0);
  EXPECT_EQ(spec->gpus[1].id, "MIG-aaaa1111");  // a prefix, as CUDA takes it: the stage gets it as given
  EXPECT_EQ(spec->gpus[1].uuid, "MIG-aaaa1111-0000-1111-2222-333344445555");
  const auto old_form = detect_gpus(cuda("MIG-GPU-1a2b3c4d-0000-1111-2222-333344445555/2/0"), two_gpus());
  ASSERT_TRUE(old_form) << old_form.error().str();
  EXPECT_EQ(old_form->gpus[0].uuid, "MIG-bbbb2222-0000-1111-2222-333344445555");
  EXPECT_EQ(describe_gpu(spec->gpus[0]), "GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e7d6c-0000-1111-2222-333344445555)");
}

TEST(Resources, ANameTheDriverDoesNotKnowIsAnErrorNeverNoGpu) {
  auto message = [](const Result<ResourceSpec>& r) { return r ? std::string("resolved") : r.error().str(); };
  EXPECT_EQ(message(detect_gpus(cuda("GPU-does-not-exist"), two_gpus())),
            "CUDA_VISIBLE_DEVICES: no device has the UUID 'GPU-does-not-exist'; the driver shows GPUs 0-1 and 2 MIG "
            "devices (NVML)");
  EXPECT_EQ(message(detect_gpus(cuda("GPU-9f8e7d6c"), kNoDriver)),
            "CUDA_VISIBLE_DEVICES: cannot resolve 'GPU-9f8e7d6c': no NVIDIA driver answered (libnvidia-ml.so.1 not "
            "loadable, nvidia-smi not found)");
  EXPECT_EQ(message(detect_gpus(cuda("MIG-GPU-1a2b3c4d-0000-1111-2222-333344445555/9/0"), two_gpus())).substr(0, 41),
            "CUDA_VISIBLE_DEVICES: no device has the U");
  EXPECT_EQ(message(detect_gpus(cuda("4"), two_gpus())),
            "CUDA_VISIBLE_DEVICES: there is no GPU 4; the driver shows GPUs 0-1 and 2 MIG devices (NVML)");
  EXPECT_EQ(message(parse_gpu_list("0,GPU-9f8e", two_gpus())), "--gpus: '0' and 'GPU-9f8e' are one device");
  EXPECT_EQ(message(parse_gpu_list("MIG-", two_gpus())), "--gpus: 'MIG-' is the start of 2 UUIDs");
  EXPECT_EQ(message(parse_gpu_list("gpu0", two_gpus())), "--gpus: 'gpu0' is not a GPU index, GPU- UUID or MIG- UUID");
}

TEST(Resources, NvidiaVisibleDevicesIsTheContainersView) {
  EXPECT_EQ(detect_gpus(container("all"), two_gpus())->gpus.size(), 3u);  // GPU 0 and GPU 1's two MIG devices
  EXPECT_TRUE(detect_gpus(container("all"), kNoDriver)->gpus.empty());    // a CUDA image on a machine without GPUs
  EXPECT_TRUE(detect_gpus(container("void"), two_gpus())->gpus.empty());
  const auto renumbered =
      detect_gpus(container("4,6"), GpuInventory{{two_gpus().devices[0], two_gpus().devices[1]}, "NVML"});
  ASSERT_TRUE(renumbered) << renumbered.error().str();
  EXPECT_EQ(renumbered->gpus[1].id, "1");                   // host GPU 6 is the container's 1
  EXPECT_FALSE(detect_gpus(container("4,6"), two_gpus()));  // it shows three
  EXPECT_FALSE(detect_gpus(container("4"), kNoDriver));
}

TEST(Resources, ExpectGpusSaysWhatWasFoundAndWhere) {
  const ResourceSpec one{{{"0", 1}}, "CUDA_VISIBLE_DEVICES"};
  EXPECT_TRUE(expect_gpus(one, 1));
  const auto missing = expect_gpus(one, 2);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().str(), "--expect-gpus 2: found 1 usable GPU (CUDA_VISIBLE_DEVICES)");
  EXPECT_EQ(missing.error().exit_code, kExitUsage);
}

TEST(Resources, NvidiaSmiListingNamesGpusAndTheirMigDevices) {
  const auto devices = parse_nvidia_smi_listing(
      "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5f3c)\n"
      "  MIG 1g.5gb      Device  0: (UUID: MIG-11)\n"
      "  MIG 1g.5gb      Device  1: (UUID: MIG-12)\n"
      "GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-6a4d)\n");
  ASSERT_EQ(devices.size(), 4u);
  EXPECT_EQ(devices[1], (GpuDevice{0, "MIG 1g.5gb", "MIG-11", "GPU-5f3c", {}, {}}));
  EXPECT_EQ(devices[3].index, 1);
  EXPECT_EQ(every_gpu({devices, "nvidia-smi -L"}).size(), 3u);  // MIG-11, MIG-12, 1
}

TEST(Resources, AllocationIsAllOrNothing) {
  const ResourceSpec spec{{{"0", 1}, {"1", 1}, {"2", 1}}, "test"};
  EXPECT_EQ(allocate(spec, {}, 2), (Ids{"0", "1"}));
  EXPECT_EQ(allocate(spec, {{"0", 1}}, 2), (Ids{"1", "2"}));
  EXPECT_EQ(allocate(spec, {{"0", 1}, {"1", 1}}, 2), std::nullopt);
  EXPECT_EQ(allocate(spec, {{"0", 1}, {"1", 1}, {"2", 1}}, 0), Ids{});
  EXPECT_FALSE(can_ever_fit(spec, 4));
  EXPECT_TRUE(can_ever_fit(spec, 3));
}

TEST(Resources, SlotsLetStagesShareAGpuLeastUsedFirst) {
  const ResourceSpec spec{{{"0", 2}, {"1", 2}}, "test"};
  EXPECT_EQ(allocate(spec, {{"0", 1}}, 1), Ids{"1"});
  EXPECT_EQ(allocate(spec, {{"0", 1}, {"1", 1}}, 2), (Ids{"0", "1"}));
  EXPECT_EQ(allocate(spec, {{"0", 2}, {"1", 1}}, 2), std::nullopt);  // distinct GPUs only
}

TEST(Resources, LogicalIdsMapOntoTheAllocationByPosition) {
  EXPECT_EQ(map_devices("0,1", {"2", "3"}), "2,3");
  EXPECT_EQ(map_devices("3", {"1"}), "1");
  EXPECT_EQ(map_devices("0", {"5", "6"}), "5");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
