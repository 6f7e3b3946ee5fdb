#include "run/resources.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

using Ids = std::vector<std::string>;

TEST(Resources, GpuListParses) {
  const auto spec = parse_gpu_list("0,1,3");
  ASSERT_TRUE(spec);
  ASSERT_EQ(spec->gpus.size(), 3u);
  EXPECT_EQ(spec->gpus[2].id, "3");
  EXPECT_FALSE(parse_gpu_list("0,0"));
  EXPECT_FALSE(parse_gpu_list("0;1"));
  EXPECT_TRUE(parse_gpu_list("")->gpus.empty());
  EXPECT_TRUE(parse_gpu_list("none")->gpus.empty());
}

TEST(Resources, SpecFileInCTestAndShortForms) {
  test::TempDir dir;
  const auto ctest = load_resource_spec(dir.write(
      "spec.json", R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}, {"id": "1"}]}]})"));
  ASSERT_TRUE(ctest) << ctest.error().str();
  EXPECT_EQ(ctest->gpus[0].slots, 2);
  EXPECT_EQ(ctest->gpus[1].slots, 1);
  const auto yaml = load_resource_spec(dir.write("spec.yaml", "gpus:\n  - {id: a, slots: 1}\n  - b\n"));
  ASSERT_TRUE(yaml) << yaml.error().str();
  EXPECT_EQ(yaml->gpus[1].id, "b");
  const auto twice = load_resource_spec(dir.write("twice.yaml", "gpus:\n  - 0\n  - 0\n"));
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().str().find("twice.yaml:3: key 'id': GPU '0' is listed twice"), std::string::npos) << twice.error().str();
  EXPECT_FALSE(load_resource_spec(dir.write("none.yaml", "cpus: 4\n")));
  const auto zero = load_resource_spec(dir.write("zero.yaml", "gpus:\n  - {id: 0, slots: 0}\n  - {id: 1, slot: 2}\n"));
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().str().find("zero.yaml:2: key 'slots': slots must be at least 1"), std::string::npos)
      << zero.error().str();
  EXPECT_NE(zero.error().str().find("zero.yaml:3: key 'slot': unknown key in a GPU"), std::string::npos)
      << zero.error().str();
  EXPECT_FALSE(load_resource_spec((dir.path() / "missing.yaml").string()));
}

TEST(Resources, DetectionPrefersCudaVisibleDevices) {
  EXPECT_EQ(detect_gpus(std::string("2,3"), "GPU 0: X\n").gpus.size(), 2u);
  EXPECT_TRUE(detect_gpus(std::string(""), "GPU 0: X\n").gpus.empty());
  EXPECT_TRUE(detect_gpus(std::string("-1"), "").gpus.empty());
  const auto smi = detect_gpus(std::nullopt, "GPU 0: NVIDIA H100 (UUID: GPU-1)\nGPU 1: NVIDIA H100 (UUID: GPU-2)\n");
  EXPECT_EQ(smi.gpus.size(), 2u);
  EXPECT_EQ(smi.source, "nvidia-smi -L");
  EXPECT_EQ(detect_gpus(std::nullopt, "").source, "none");
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
