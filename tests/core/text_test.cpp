#include "core/text.h"

#include <gtest/gtest.h>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

using List = std::vector<std::string>;

TEST(Text, LowerChangesAsciiLettersOnly) {
  EXPECT_EQ(lower("Train_GPU/Eval-2"), "train_gpu/eval-2");
  EXPECT_EQ(lower(""), "");
  EXPECT_EQ(lower("@[`{"), "@[`{");  // the bytes next to A-Z and a-z
  EXPECT_EQ(lower("ÄÖ Straße \xC0\xFF"), "ÄÖ straße \xC0\xFF");
}

TEST(Text, TrimDropsBlanksAndLineEndsAtBothEnds) {
  EXPECT_EQ(trim(" \t a b \r\n"), "a b");
  EXPECT_EQ(trim("a"), "a");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" \t\r\n "), "");
  EXPECT_EQ(trim("\va\f"), "\va\f");  // not blanks unless asked for
}

TEST(Text, TrimTakesItsOwnBlanks) {
  EXPECT_EQ(trim("== chain ==", "= "), "chain");
  EXPECT_EQ(trim(" a\r", " "), "a\r");
  EXPECT_EQ(trim("===", "="), "");
}

TEST(Text, TrimEndKeepsTheIndent) {
  EXPECT_EQ(trim_end("    a  b \r\n"), "    a  b");
  EXPECT_EQ(trim_end("a"), "a");
  EXPECT_EQ(trim_end(""), "");
  EXPECT_EQ(trim_end(" \t "), "");
  EXPECT_EQ(trim_end("a \t", " "), "a \t");
}

TEST(Text, SplitKeepsEveryPiece) {
  EXPECT_EQ(split("a,b,c", ','), (List{"a", "b", "c"}));
  EXPECT_EQ(split("a", ','), List{"a"});
  EXPECT_EQ(split("", ','), List{""});
  EXPECT_EQ(split(",", ','), (List{"", ""}));
  EXPECT_EQ(split(",a,,b,", ','), (List{"", "a", "", "b", ""}));
  EXPECT_EQ(split(" a , b ", ','), (List{" a ", " b "}));
}

TEST(Text, JoinPutsTheSeparatorBetweenEachTwo) {
  EXPECT_EQ(join(List{"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(join(List{"a"}, ", "), "a");
  EXPECT_EQ(join(List{}, ", "), "");
  EXPECT_EQ(join(List{"", "a", ""}, "/"), "/a/");
  EXPECT_EQ(join(List{"a", "b"}, ""), "ab");
  const List parts{"a", "b", "c"};
  EXPECT_EQ(join(std::span(parts).first(2), "/"), "a/b");
}

TEST(Text, JoinUndoesSplit) {
  for (const std::string text : {"", ",", "a", ",a,,b,"}) EXPECT_EQ(join(split(text, ','), ","), text);
}

TEST(Text, AllDigitsIsOneOrMoreAsciiDigits) {
  EXPECT_TRUE(all_digits("0"));
  EXPECT_TRUE(all_digits("4242"));
  EXPECT_FALSE(all_digits(""));
  EXPECT_FALSE(all_digits("12a"));
  EXPECT_FALSE(all_digits("-1"));
  EXPECT_FALSE(all_digits("\xd9\xa3"));  // an Arabic-Indic digit is not an index
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
