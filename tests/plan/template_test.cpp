#include "plan/template.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

TEST(Template, SubstitutesKeepingSpacing) {
  EXPECT_EQ(render("{py} {a}  {b} ", {{"py", "python"}, {"a", " "}, {"b", "x=1"}}).value(), "python    x=1 ");
}

TEST(Template, UnknownSlotIsAnError) {
  const auto r = render("{py} {nope}", {{"py", "p"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().str().find("unknown slot {nope}"), std::string::npos);
  EXPECT_FALSE(render("{py", {{"py", "p"}}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
