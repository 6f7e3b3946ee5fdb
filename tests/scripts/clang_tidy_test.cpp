// .clang-tidy, which CI runs over src/ (scripts/run-clang-tidy.sh): a function over 60 lines
// is an error, a method defined inside its class too (the hand-written script it replaced
// never saw those), and one of 60 lines is not.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/command.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

// A body of `lines` lines between the braces' lines.
std::string body(int lines, const std::string& indent) {
  std::string text = " {\n";
  for (int i = 0; i < lines - 1; ++i) text += indent + "++x;\n";
  return text + indent + "return x;\n";
}

CommandOutcome tidy(const test::TempDir& dir, const std::string& source) {
  std::filesystem::copy_file(test::source_dir() + "/.clang-tidy", dir.path() / ".clang-tidy");
  const std::string file = dir.write("f.cpp", source);
  return run_command({"clang-tidy", "--quiet", file, "--", "-std=c++20"});
}

TEST(ClangTidyFunctionSize, AMethodInsideItsClassOverSixtyLinesIsAnError) {
  test::TempDir dir;
  const CommandOutcome outcome = tidy(dir, "struct S {\n  int method(int x)" + body(61, "    ") + "  }\n};\n");
  EXPECT_FALSE(outcome.ok()) << outcome.output;
  EXPECT_NE(outcome.output.find("function 'method' exceeds recommended size"), std::string::npos) << outcome.output;
}

TEST(ClangTidyFunctionSize, AFreeFunctionOfSixtyLinesPassesAndOneMoreFails) {
  test::TempDir at_limit;
  const CommandOutcome fits = tidy(at_limit, "int f(int x)" + body(59, "  ") + "}\n");
  EXPECT_TRUE(fits.ok()) << fits.output << fits.launch_error;
  test::TempDir over;
  const CommandOutcome too_long = tidy(over, "int f(int x)" + body(61, "  ") + "}\n");
  EXPECT_FALSE(too_long.ok()) << too_long.output;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
