#include "plan/shell_words.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

using Words = std::vector<std::string>;

ShellWords split(const std::string& text, bool pipe_is_space = true) {
  auto words = split_shell_words(text, {.pipe_is_space = pipe_is_space});
  EXPECT_TRUE(words) << text;
  return words.value_or(ShellWords{});
}

TEST(ShellWords, RunsOfSpacesCollapse) {
  EXPECT_EQ(split("py  a.py   -o  x=1    ").words, (Words{"py", "a.py", "-o", "x=1"}));
}

TEST(ShellWords, QuotesAreRemovedAsTheReferenceShellDoes) {
  EXPECT_EQ(split(R"(py --shape="3,48,320" 'a b' c\ d "x\"y")").words,
            (Words{"py", "--shape=3,48,320", "a b", "c d", "x\"y"}));
  EXPECT_EQ(split(R"(py "" '')").words, (Words{"py", "", ""}));
}

TEST(ShellWords, PipeActsAsASpaceUnderTheReferenceIfs) {
  EXPECT_EQ(split("py a|b").words, (Words{"py", "a", "b"}));
  const auto literal = split("py a|b", false);
  EXPECT_EQ(literal.words, (Words{"py", "a|b"}));
  EXPECT_EQ(literal.shell_constructs, (Words{"| pipe"}));
}

TEST(ShellWords, RedirectionsAreRecordedNotPassed) {
  const auto w = split("py x.py > ./out/a.log 2>&1 ");
  EXPECT_EQ(w.words, (Words{"py", "x.py"}));
  EXPECT_EQ(w.stdout_file, "./out/a.log");
  EXPECT_TRUE(w.stderr_to_stdout);
  const auto tight = split("py x.py >./out/b.log 2>&1");
  EXPECT_EQ(tight.words, (Words{"py", "x.py"}));
  EXPECT_EQ(tight.stdout_file, "./out/b.log");
}

TEST(ShellWords, ShellConstructsAreReportedAndKeptLiteral) {
  const auto w = split("py a.py --x=$(rm -rf /) `id`;ls && echo");
  EXPECT_EQ(w.words, (Words{"py", "a.py", "--x=$(rm", "-rf", "/)", "`id`;ls", "&&", "echo"}));
  EXPECT_EQ(w.shell_constructs, (Words{"$ expansion", "( ) subshell", "` command substitution", "; command separator",
                                       "& background or &&"}));
}

TEST(ShellWords, HashStartsACommentOnlyAtAWordStart) {
  const auto w = split("py a#b #rest of line");
  EXPECT_EQ(w.words, (Words{"py", "a#b"}));
  EXPECT_EQ(w.shell_constructs, (Words{"# comment"}));
}

TEST(ShellWords, UnclosedQuoteIsAnError) {
  EXPECT_FALSE(split_shell_words("py 'abc", {}));
  EXPECT_FALSE(split_shell_words("py \"abc", {}));
  EXPECT_FALSE(split_shell_words("py >", {}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
