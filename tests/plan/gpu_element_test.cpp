#include "plan/gpu_element.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

using Launch = GpuElement::Launch;

TEST(GpuElementParse, ParsesStructurally) {
  const auto nine = parse_gpu_element("0,1,2,3,4,5,6,7,8");
  ASSERT_TRUE(nine);
  EXPECT_EQ(nine->gpu_count, 9);
  EXPECT_EQ(nine->launch, Launch::kMulti);
  EXPECT_EQ(nine->device, "0,1,2,3,4,5,6,7,8");
  const auto ten = parse_gpu_element("10");
  ASSERT_TRUE(ten);
  EXPECT_EQ(ten->gpu_count, 1);
  const auto fleet = parse_gpu_element("1.1.1.1,2.2.2.2;0,1");
  ASSERT_TRUE(fleet);
  EXPECT_EQ(fleet->launch, Launch::kMultiNode);
  EXPECT_EQ(fleet->nodes, 2);
  EXPECT_TRUE(parse_gpu_element("-1")->cpu);
}

TEST(GpuElementParse, RejectsMalformedElements) {
  for (const char* bad : {"", "a", "0,", ",0", "0;;1", "0 1", "-2", "h1,h2;"}) {
    const auto e = parse_gpu_element(bad);
    EXPECT_FALSE(e) << bad;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
