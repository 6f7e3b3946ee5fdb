// The layer check (cmake/layer_check.cmake), run in cmake's script mode on a small tree of
// two layers: `low` may use nothing, `high` may use `low`.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

class LayerCheck : public ::testing::Test {
 protected:
  // The check's exit code; its message in `message_`.
  int check() {
    const std::string out = (tree_.path() / "check.out").string();
    const std::string command =
        test::shell_quote(test::cmake_command()) + " -DTIPC_LAYER_ROOT=" + test::shell_quote(tree_.path().string()) +
        " '-DTIPC_LAYERS=low:;high:low' -P " + test::shell_quote(test::source_dir() + "/cmake/layer_check.cmake") +
        " >" + test::shell_quote(out) + " 2>&1";
    const int status = std::system(command.c_str());
    message_ = test::slurp(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void write_low(const std::string& text) { tree_.write("src/low/thing.h", "#pragma once\n" + text); }

  test::TempDir tree_;
  std::string message_;
};

TEST_F(LayerCheck, DownwardUsesPass) {
  write_low("namespace tipc::low {\nstruct Thing {};\n}  // namespace tipc::low\n");
  tree_.write(
      "src/high/user.h",
      "#include \"low/thing.h\"\nnamespace tipc::high {\nstruct User { low::Thing a; tipc::low::Thing b; };\n}\n");
  EXPECT_EQ(check(), 0) << message_;
}

TEST_F(LayerCheck, AnUpwardIncludeFails) {
  write_low("#include \"high/user.h\"\n");
  EXPECT_NE(check(), 0);
  EXPECT_NE(message_.find("src/low/thing.h: uses high/"), std::string::npos) << message_;
}

// As `namespace tipc::high {` and nested.
TEST_F(LayerCheck, AnUpwardForwardDeclarationFails) {
  for (const char* declaration :
       {"namespace tipc::high {\nstruct User;\n}\n", "namespace tipc {\nnamespace high {\nstruct User;\n}\n}\n"}) {
    write_low(declaration);
    EXPECT_NE(check(), 0) << declaration;
    EXPECT_NE(message_.find("src/low/thing.h: uses high/"), std::string::npos) << message_;
  }
}

TEST_F(LayerCheck, AnUpwardQualifiedNameFails) {
  write_low("void use(const high::User& user);\n");
  EXPECT_NE(check(), 0);
  EXPECT_NE(message_.find("uses high/"), std::string::npos) << message_;
  EXPECT_NE(message_.find("in: void use(const high::User& user)"), std::string::npos) << message_;
}

TEST_F(LayerCheck, CommentsAndLongerNamesAreNoUse) {
  write_low("// high::User reads this (a comment)\nint highest = 0;  // namespace high\nvoid f(my_high::X);\n");
  EXPECT_EQ(check(), 0) << message_;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
