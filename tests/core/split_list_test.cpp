#include "core/split_list.h"

#include <gtest/gtest.h>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

using List = std::vector<std::string>;

TEST(SplitList, KeepsEmptyInnerAndLeadingElementsLikeIfs) {
  EXPECT_EQ(split_list("a|b"), (List{"a", "b"}));
  EXPECT_EQ(split_list("a||b"), (List{"a", "", "b"}));
  EXPECT_EQ(split_list("|a"), (List{"", "a"}));
  EXPECT_EQ(split_list("a|"), (List{"a"}));
  EXPECT_EQ(split_list("a||"), (List{"a", ""}));
  EXPECT_EQ(split_list(" a | b "), (List{" a ", " b "}));
  EXPECT_EQ(split_list(""), List{});
  EXPECT_EQ(split_list("0,1", ','), (List{"0", "1"}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
