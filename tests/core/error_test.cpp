#include "core/error.h"

#include <gtest/gtest.h>

#include <memory>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

Result<std::unique_ptr<int>> boxed(int value, int* calls) {
  ++*calls;
  if (value < 0) return fail(Error::plain("negative: " + std::to_string(value)));
  return std::make_unique<int>(value);
}

Result<void> check_even(int value) {
  if (value % 2 == 0) return {};
  Error odd = Error::at("f.txt", 3, "k", "odd");
  odd.exit_code = kExitFailed;
  return fail(std::move(odd));
}

Result<int> doubled_if_even(int value, int* calls) {
  auto box = TRY(boxed(value, calls));
  TRY(check_even(*box));
  return *box * 2;
}

TEST(Try, GivesTheValueAndGoesOnWhenEveryStepSucceeds) {
  int calls = 0;
  auto result = doubled_if_even(4, &calls);
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(*result, 8);
  EXPECT_EQ(calls, 1);  // the expression is evaluated once
}

TEST(Try, ReturnsTheFirstErrorUnchangedAndStops) {
  int calls = 0;
  auto result = doubled_if_even(-1, &calls);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().str(), "negative: -1");
  EXPECT_EQ(calls, 1);
}

TEST(Try, ReturnsTheErrorOfAVoidResultWithItsPlaceAndExitCode) {
  int calls = 0;
  auto result = doubled_if_even(3, &calls);
  ASSERT_FALSE(result);
  ASSERT_EQ(result.error().diagnostics.size(), 1u);
  EXPECT_EQ(result.error().diagnostics[0].file, "f.txt");
  EXPECT_EQ(result.error().diagnostics[0].line, 3);
  EXPECT_EQ(result.error().exit_code, kExitFailed);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
