// Text shown on a terminal: control characters written out, invalid UTF-8 replaced, lines kept.
#include "core/visible_text.h"

#include <gtest/gtest.h>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(VisibleText, ControlCharactersAreWrittenOutAndTabAndLineFeedKept) {
  EXPECT_EQ(visible_text("\x1b]0;title\x07\x1b[2J\r[PASS]"), "\\x1b]0;title\\x07\\x1b[2J\\x0d[PASS]");
  EXPECT_EQ(visible_text(std::string("a\0b\bc\x7f", 6)), "a\\x00b\\x08c\\x7f");
  EXPECT_EQ(visible_text("line 1\n\tline 2\n"), "line 1\n\tline 2\n");
}

TEST(VisibleText, C1ControlsAreWrittenOutAndOtherUnicodeKept) {
  EXPECT_EQ(visible_text("\xC2\x9B"
                         "2J \xC2\x85"),
            "\\u009B2J \\u0085");                                                     // CSI and NEL, as UTF-8
  EXPECT_EQ(visible_text("模型 caf\xC3\xA9 \xC2\xA0"), "模型 caf\xC3\xA9 \xC2\xA0");  // U+00A0 is printable
}

TEST(VisibleText, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  EXPECT_EQ(visible_text("a\xff\x9b"
                         "b"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b");                                                   // a lone 0x9B is no CSI either
  EXPECT_EQ(visible_text("\xE6\xA8"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // a character cut short
}

TEST(VisibleText, ShowingVisibleTextAgainChangesNothing) {
  const std::string once = visible_text("\x1b[31mred\xff\r\n");
  EXPECT_EQ(visible_text(once), once);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
