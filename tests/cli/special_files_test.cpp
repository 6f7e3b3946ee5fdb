// A FIFO given where tipc-run reads a file (issue 37, defect 8) is an error naming it, at once:
// open() used to wait for a writer forever before the regular-file check could run. Each
// command runs under `timeout`, so a regression fails these tests instead of hanging them.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fake_config.h"
#include "support/npy_file.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

constexpr int kTimedOut = 124;  // timeout(1)'s exit status

test::RunResult run_bounded(const std::string& cwd, const std::vector<std::string>& args) {
  static test::TempDir capture;
  std::string command = "cd " + test::shell_quote(cwd) + " && timeout 20 " + test::shell_quote(test::tipc_run_binary());
  for (const auto& arg : args) command += " " + test::shell_quote(arg);
  const std::string out = (capture.path() / "out").string(), err = (capture.path() / "err").string();
  command += " >" + test::shell_quote(out) + " 2>" + test::shell_quote(err) + " </dev/null";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(out), test::slurp(err)};
}

class SpecialFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write(test::kPaddleOcrMarker, "");
    repo_.write("test_tipc/configs/alexnet.txt", test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
    array_ = repo_.write("a.npy", test::npy_float32({1, 2, 3}));
    fifo_ = (repo_.path() / "pipe").string();
    EXPECT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }

  void expect_refused(const std::vector<std::string>& args, const std::string& role) {
    const auto r = run_bounded(repo_.path(), args);
    ASSERT_NE(r.exit_code, kTimedOut) << "tipc-run blocked on the FIFO";
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(fifo_ + ": cannot read " + role + ": it is a FIFO (named pipe), not a regular file"),
              std::string::npos)
        << r.err;
  }

  test::TempDir repo_;
  std::string array_, fifo_;
};

TEST_F(SpecialFilesTest, AFifoAsTheConfigIsAnErrorNamingIt) {
  expect_refused({fifo_, "lite_train_lite_infer", "--dry-run"}, "the config file");
}

TEST_F(SpecialFilesTest, AFifoAsTheSettingsIsAnErrorNamingIt) {
  expect_refused({"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run", "--settings", fifo_},
                 "the settings file");
}

TEST_F(SpecialFilesTest, AFifoAsADiffInputIsAnErrorNamingIt) {
  expect_refused({"diff", array_, fifo_}, "the file");
  expect_refused({"diff", fifo_, array_}, "the file");
}

TEST_F(SpecialFilesTest, AFifoAsAnInitCheckInputIsAnErrorNamingIt) {
  expect_refused({"init-check", fifo_, array_}, "the file");
}

TEST_F(SpecialFilesTest, ADeviceAsADiffInputIsAnErrorNamingIt) {
  const auto r = run_bounded(repo_.path(), {"diff", array_, "/dev/zero"});
  ASSERT_NE(r.exit_code, kTimedOut);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("/dev/zero: cannot read the file: it is a character device"), std::string::npos) << r.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
