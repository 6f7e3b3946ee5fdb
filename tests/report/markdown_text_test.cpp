#include "report/markdown_text.h"

#include <gtest/gtest.h>

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(MarkdownText, ACellShowsNoHtmlAndStaysOneCell) {
  EXPECT_EQ(markdown_cell("a|b <script>\nx\x1b"), "a\\|b &lt;script&gt; x ");
}

// GitHub renders no HTML in a code span and shows an entity there as typed: `&lt;` would
// read as four characters.
TEST(MarkdownText, ACodeSpanKeepsAngleBracketsAsTheyAre) {
  EXPECT_EQ(markdown_code("train.py:6 in <module>"), "`train.py:6 in <module>`");
  EXPECT_EQ(markdown_code("x|y\nz"), "`x\\|y z`");
  EXPECT_EQ(markdown_code("a`<b>"), "a`&lt;b&gt;") << "no code span around a backtick: plain cell text";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
