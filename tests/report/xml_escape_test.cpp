#include "report/xml_escape.h"

#include <gtest/gtest.h>

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(XmlEscape, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(xml_escape("a<b>&\"c'", XmlContext::kText), "a&lt;b&gt;&amp;&quot;c&apos;");
}

TEST(XmlEscape, WhitespaceIsKeptInTextAndReferencedInAttributes) {
  EXPECT_EQ(xml_escape("a\tb\nc\rd", XmlContext::kText), "a\tb\nc&#13;d");
  EXPECT_EQ(xml_escape("a\tb\nc\rd", XmlContext::kAttribute), "a&#9;b&#10;c&#13;d");
}

TEST(XmlEscape, ForbiddenCharactersAreWrittenVisibly) {
  EXPECT_EQ(xml_escape(std::string("\x1b[0m\x07\x00!", 7), XmlContext::kText), "\\x1b[0m\\x07\\x00!");
  EXPECT_EQ(xml_escape("\xEF\xBF\xBE\xEF\xBF\xBF", XmlContext::kText), "\\uFFFE\\uFFFF");
}

TEST(XmlEscape, InvalidUtf8BecomesTheReplacementCharacter) {
  EXPECT_EQ(xml_escape("a\xff"
                       "b\xc3",
                       XmlContext::kText),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("\xed\xa0\x80", XmlContext::kText), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(xml_escape("é ✓ 😀", XmlContext::kText), "é ✓ 😀");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
