#include "report/html_text.h"

#include <gtest/gtest.h>

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(HtmlText, EscapesTheFiveSpecialCharacters) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("&amp;"), "&amp;amp;");
}

TEST(HtmlText, KeepsValidUtf8AndReplacesEveryInvalidByte) {
  EXPECT_EQ(html_escape("grüße 日本 \xf0\x9f\x98\x80"), "grüße 日本 \xf0\x9f\x98\x80");
  EXPECT_EQ(html_escape("\xff"), "\xef\xbf\xbd");
  EXPECT_EQ(html_escape("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");                  // overlong '/'
  EXPECT_EQ(html_escape("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
  EXPECT_EQ(html_escape("\xf4\x90\x80\x80").find("\xf4"), std::string::npos);      // above U+10FFFF
  EXPECT_EQ(html_escape("ab\xe6\x97"), "ab\xef\xbf\xbd\xef\xbf\xbd");              // cut short
}

TEST(HtmlText, ShowsControlCharactersAsSymbols) {
  EXPECT_EQ(html_escape(std::string("a\0b", 3)),
            "a\xe2\x90\x80"
            "b");                                      // U+2400
  EXPECT_EQ(html_escape("\x1b"), "\xe2\x90\x9b");      // U+241B
  EXPECT_EQ(html_escape("\x7f"), "\xe2\x90\xa1");      // U+2421
  EXPECT_EQ(html_escape("\xc2\x85"), "\xef\xbf\xbd");  // C1: no picture
  EXPECT_EQ(html_escape("tab\tnew\nline"), "tab\tnew\nline");
  EXPECT_EQ(html_escape("cr\r"), "cr\xe2\x90\x8d");
}

TEST(HtmlText, LogTextLosesColourCodesAndKeepsLines) {
  EXPECT_EQ(html_escape_log("\x1b[1;31mred\x1b[0m <x>\r\nnext\rover\n"), "red &lt;x&gt;\nnext\nover\n");
  EXPECT_EQ(html_escape_log("\x1b[12"), "\xe2\x90\x9b[12");  // cut short: no sequence
}

TEST(HtmlText, FileUrlsPercentEncodeEverythingButPlainPathCharacters) {
  EXPECT_EQ(file_url("/a/b-c_d.e~f/log.txt"), "file:///a/b-c_d.e~f/log.txt");
  EXPECT_EQ(file_url("/a b/<x>&\"y'#?%.log"), "file:///a%20b/%3Cx%3E%26%22y%27%23%3F%25.log");
  EXPECT_EQ(file_url("/\xff"), "file:///%FF");
}

TEST(HtmlText, RelativeUrlsStartAtTheBaseDirectory) {
  EXPECT_EQ(relative_url("/r/out/m/train.log", "/r/out/m"), "train.log");
  EXPECT_EQ(relative_url("/r/out/m/a b/x.log", "/r/out/m/"), "a%20b/x.log");
  EXPECT_EQ(relative_url("/r/out/other/x.log", "/r/out/m"), "../other/x.log");
  EXPECT_EQ(relative_url("/r/x:y/z.log", "/r"), "x%3Ay/z.log");  // no scheme
  EXPECT_EQ(relative_url("/r/out/./m/../m/t.log", "/r/out/m"), "t.log");
  // Without an absolute base there is nothing to be relative to.
  EXPECT_EQ(relative_url("/r/t.log", ""), "file:///r/t.log");
  EXPECT_EQ(relative_url("t.log", "/r"), "file://t.log");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
