#include "core/confined_path.h"

#include <gtest/gtest.h>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(ConfinedPath, RelativePathsWithoutDotDotAreInside) {
  for (const char* inside : {".", "./x", "lite_data", "a/b/c", "a//b/", "..a/b..", "数据/图像"}) {
    EXPECT_TRUE(is_confined_relative_path(inside)) << inside;
  }
  for (const char* outside : {"", "/", "/abs/x", "..", "../x", "a/..", "a/../b", "a/../../b", "./.."}) {
    EXPECT_FALSE(is_confined_relative_path(outside)) << outside;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
