// `cmake --install` into a scratch prefix: the layout, and an installed binary that runs
// from there on a repository outside the source tree with the data installed beside it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace fs = std::filesystem;
using test::shell_quote;

// Runs a shell command line; returns its exit code and its standard output and error.
test::RunResult run_shell(const std::string& command) {
  test::TempDir capture;
  const std::string out = (capture.path() / "out").string(), err = (capture.path() / "err").string();
  const int status = std::system(("(" + command + ") >" + shell_quote(out) + " 2>" + shell_quote(err) + " </dev/null").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(out), test::slurp(err)};
}

class InstallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_shell(shell_quote(test::cmake_command()) + " --install " + shell_quote(test::build_dir()) +
                             " --prefix " + shell_quote(prefix_.path().string()));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  fs::path installed(const std::string& relative) const { return prefix_.path() / relative; }

  test::TempDir prefix_;
};

TEST_F(InstallTest, InstallsTheBinaryItsDataTheCompletionAndTheLicense) {
  EXPECT_TRUE(fs::is_regular_file(installed("bin/tipc-run")));
  for (const auto& entry : fs::directory_iterator(test::source_dir() + "/configs/dialects")) {
    EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/dialects") / entry.path().filename())) << entry.path();
  }
  EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/launchers.yaml")));
  EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/chains.yaml")));
  EXPECT_TRUE(fs::is_regular_file(installed("share/bash-completion/completions/tipc-run")));
  EXPECT_EQ(test::slurp(installed("share/doc/tipc-run/LICENSE")), test::slurp(test::source_dir() + "/LICENSE"));
  EXPECT_NE(test::slurp(installed("share/doc/tipc-run/copyright")).find("License: Apache-2.0"), std::string::npos);
}

TEST_F(InstallTest, InstallsTheManPage) {
  if (!fs::exists(test::build_dir() + "/tipc-run.1")) GTEST_SKIP() << "SKIPPED LOUDLY: configured with -DTIPC_MAN=OFF";
  const fs::path gzipped = installed("share/man/man1/tipc-run.1.gz");
  ASSERT_TRUE(fs::is_regular_file(gzipped)) << "Debian installs man pages gzipped";
  const auto unpacked = run_shell("gzip -dc " + shell_quote(gzipped.string()));
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.err;
  const std::string page = unpacked.out;
  EXPECT_NE(page.find(".TH \"tipc-run\" \"1\""), std::string::npos) << page.substr(0, 400);
  for (const char* subcommand : {"report", "diff", "acceptance", "padiff", "init-check", "compare-results"}) {
    EXPECT_NE(page.find(std::string("\\fB") + subcommand + "\\fR"), std::string::npos) << subcommand;
  }
}

// A dialect that exists only in the installed share/tipc-run/dialects: the installed binary
// can use it only if it reads its data there, not from the source tree compiled in.
TEST_F(InstallTest, TheInstalledBinaryReadsTheDialectsInstalledBesideItOutsideTheTree) {
  const fs::path dialects = installed("share/tipc-run/dialects");
  std::string text = test::slurp((dialects / "paddleocr.yaml").string());
  text.replace(text.find("name: paddleocr"), 15, "name: installtest");
  test::TempDir repo;
  repo.write("installtest.yaml", text);
  fs::copy_file(repo.path() / "installtest.yaml", dialects / "installtest.yaml");
  repo.write("test_tipc/configs/alexnet.txt", test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
  const auto r = run_shell("cd " + shell_quote(repo.path().string()) + " && env -u TIPC_DIALECT_DIR " +
                           shell_quote(installed("bin/tipc-run").string()) +
                           " test_tipc/configs/alexnet.txt lite_train_lite_infer --dry-run --dialect installtest");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("installtest"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/usr/bin/python3 "), std::string::npos) << r.out;  // the planned commands
}

TEST_F(InstallTest, TheInstalledCompletionCompletesSubcommandsConfigsModesAndOptionValues) {
  test::TempDir repo;
  repo.write("test_tipc/configs/alexnet.txt", "");
  const auto complete = [&](const std::string& words) {
    const std::string script = "source " + shell_quote(installed("share/bash-completion/completions/tipc-run").string()) +
                               " && cd " + shell_quote(repo.path().string()) + " && COMP_WORDS=(" + words +
                               ") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _tipc_run && echo \"${COMPREPLY[*]}\"";
    const auto r = run_shell("bash -c " + shell_quote(script));
    EXPECT_EQ(r.exit_code, 0) << words << ": " << r.err;
    return r.out;
  };
  EXPECT_EQ(complete("tipc-run co"), "compare-results\n");
  EXPECT_EQ(complete("tipc-run test_tipc/configs/al"), "test_tipc/configs/alexnet.txt\n");
  EXPECT_EQ(complete("tipc-run test_tipc/configs/alexnet.txt whole_"), "whole_train_whole_infer whole_infer\n");
  EXPECT_EQ(complete("tipc-run -j 2 test_tipc/configs/alexnet.txt whole_infer --executor ''"), "local slurm\n");
  EXPECT_EQ(complete("tipc-run padiff --ph"), "--phase\n");
  EXPECT_EQ(complete("tipc-run --ret"), "--retries\n");
  EXPECT_EQ(complete("tipc-run --fail"), "--fail-fast\n");
  EXPECT_EQ(complete("tipc-run --retries 2 --shard 1/2 -k bs1 test_tipc/configs/alexnet.txt whole_i"), "whole_infer\n");
  EXPECT_EQ(complete("tipc-run report --out"), "--output\n");
}

}  // namespace
}  // namespace tipc
