// scripts/longest-functions.py, which CI runs with --limit 60 (issue 16: no function in src/
// over 60 lines): it must see every definition, wrapped signatures included.
#include <gtest/gtest.h>

#include <string>

#include "core/command.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

std::string function(const std::string& signature, int body_lines) {
  std::string text = signature + " {\n";
  for (int i = 0; i < body_lines; ++i) text += "  ++x;\n";
  return text + "}\n\n";
}

CommandOutcome longest(const test::TempDir& dir, const std::string& limit) {
  return run_command({"python3", test::source_dir() + "/scripts/longest-functions.py", "--top", "3", "--limit", limit,
                      dir.path().string()});
}

TEST(LongestFunctions, ASignatureThatWrapsIsMeasuredFromItsFirstLine) {
  test::TempDir dir;
  dir.write("a.cpp", "int declared(int a,\n             int b);\n\n" +
                         function("Result<void> Planner::wrapped(const Thing& thing,\n"
                                  "                              int count)",
                                  70) +
                         function("int short_one()", 3) + "int one_liner() { return 1; }\n");
  const auto outcome = longest(dir, "60");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("  73  "), std::string::npos) << outcome.output;  // 2 signature lines + 70 + "}"
  EXPECT_NE(outcome.output.find("a.cpp:4  Result<void> Planner::wrapped(const Thing& thing, int count) {"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("   5  "), std::string::npos) << outcome.output;  // short_one
  EXPECT_EQ(outcome.output.find("declared"), std::string::npos) << outcome.output;
  EXPECT_EQ(outcome.output.find("one_liner"), std::string::npos) << outcome.output;
}

TEST(LongestFunctions, UnderTheLimitExitsZero) {
  test::TempDir dir;
  dir.write("b.cpp", function("int f(int a,\n      int b)", 10));
  const auto outcome = longest(dir, "60");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("  13  "), std::string::npos) << outcome.output;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
