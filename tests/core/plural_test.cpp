#include "core/plural.h"

#include <gtest/gtest.h>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(Plural, OneIsSingularEveryOtherCountPlural) {
  EXPECT_EQ(plural(0, "stage"), "0 stages");
  EXPECT_EQ(plural(1, "stage"), "1 stage");
  EXPECT_EQ(plural(2, "GPU"), "2 GPUs");
}

TEST(Plural, AnIrregularPluralIsUsedAsGiven) {
  EXPECT_EQ(plural(1, "match", "matches"), "1 match");
  EXPECT_EQ(plural(3, "match", "matches"), "3 matches");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
