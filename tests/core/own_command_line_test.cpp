#include "core/own_command_line.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(OwnCommandLine, IsThisProcesssArgvWordForWordAndAsOneLine) {
  const auto argv = own_command_line();
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(std::filesystem::path(argv.front()).filename(), "tipc-tests");
  std::string joined;
  for (const auto& word : argv) joined += (joined.empty() ? "" : " ") + word;
  EXPECT_EQ(own_command_line_text(), joined);
  EXPECT_EQ(own_command_line_text().find('\0'), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
