#include "compat/reference_gpu_element.h"

#include <gtest/gtest.h>

namespace tipc::compat {
namespace {
namespace TIPC_TEST_FILE {

using Launch = plan::GpuElement::Launch;

plan::GpuElement compat(const std::string& text, int threshold = 15) {
  std::string ips;
  return reference_gpu_element(text, ips, threshold);
}

TEST(GpuElementCompat, ClassifiesByStringLengthLikeTheReference) {
  const auto cpu = compat("-1");
  EXPECT_TRUE(cpu.cpu);
  EXPECT_FALSE(cpu.device);
  EXPECT_EQ(cpu.launch, Launch::kSingle);

  const auto one = compat("0");
  EXPECT_EQ(one.device, "0");
  EXPECT_TRUE(one.sets_device_on_select);

  const auto two = compat("0,1");
  EXPECT_EQ(two.device, "0");
  EXPECT_EQ(two.launch, Launch::kMulti);
  EXPECT_EQ(two.gpu_count, 2);
  EXPECT_FALSE(two.nodes);

  const auto fleet = compat("192.168.0.1,192.168.0.2;0,1");
  EXPECT_EQ(fleet.gpus, "0,1");
  EXPECT_EQ(fleet.ips, "192.168.0.1,192.168.0.2");
  EXPECT_EQ(fleet.launch, Launch::kMultiNode);
  EXPECT_EQ(fleet.nodes, 2);
  EXPECT_FALSE(fleet.device);
}

TEST(GpuElementCompat, ReproducesTheLengthRuleOddities) {
  EXPECT_EQ(compat("10").launch, Launch::kSingle);  // two characters: single process (D10 in docs/reference-runner.md)
  EXPECT_EQ(compat("10").device, "10");
  const auto nine = compat("0,1,2,3,4,5,6,7,8");  // 17 characters: taken as the ips form
  EXPECT_EQ(nine.gpus, "");
  EXPECT_EQ(nine.launch, Launch::kSingle);
  EXPECT_EQ(nine.nodes, 9);
  const auto short_ips = compat("1.1.1.1,2.2.2.2;0,1");  // ips of 15 characters: single node
  EXPECT_EQ(short_ips.launch, Launch::kMulti);
  EXPECT_FALSE(short_ips.nodes);
  const auto empty = compat("");
  EXPECT_EQ(empty.device, "");
  EXPECT_TRUE(empty.sets_device_on_select);
}

TEST(GpuElementCompat, GanAndTemplateUseAThresholdOf26) {
  EXPECT_EQ(compat("192.168.0.1,192.168.0.2;0,1", 26).launch, Launch::kMulti);
}

TEST(GpuElementCompat, IpsIsStickyAcrossElementsAsInTheRunner) {
  std::string ips;
  reference_gpu_element("192.168.0.1,192.168.0.2;0,1", ips, 15);
  const auto next = reference_gpu_element("0", ips, 15);
  EXPECT_EQ(next.nodes, 2);  // the reference's stale $ips still selects the _nodes_ save dir
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::compat
