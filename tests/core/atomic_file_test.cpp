// Whole-file writes: the file appears complete or not at all, and a failure is an Error
// naming the file and the system's reason.
#include "core/atomic_file.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(AtomicFile, WritesTheWholeFileAndCreatesItsDirectories) {
  test::TempDir dir;
  const std::string path = (dir.path() / "a/b/report.md").string();
  ASSERT_TRUE(write_file_atomically(path, "first\n"));
  ASSERT_TRUE(write_file_atomically(path, "second\n"));
  EXPECT_EQ(test::slurp(path), "second\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path() / "a/b"), {}), 1);  // no temp file left
}

TEST(AtomicFile, AFailureIsAnErrorNamingTheFileAndTheReason) {
  test::TempDir dir;
  const std::string blocked = (dir.path() / "dir").string();
  std::filesystem::create_directories(blocked + "/inside");  // a directory where the file should go
  const auto written = write_file_atomically(blocked, "text");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().str().rfind("cannot write " + blocked + ": ", 0), 0u) << written.error().str();
  EXPECT_TRUE(std::filesystem::is_directory(blocked + "/inside"));  // nothing lost
}

// A full disk without root: a file size limit (ulimit -f) makes writes past it fail with
// EFBIG, SIGXFSZ ignored as tipc-run ignores it. The soft limit is restored afterwards.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : old_handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    getrlimit(RLIMIT_FSIZE, &old_);
    rlimit limited = old_;
    limited.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limited);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int);
};

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AtomicFile, AWriteThatFailsOnAFullDiskLeavesNoTempFileAndNamesTheFile) {
  test::TempDir dir;
  const std::string path = (dir.path() / "report.json").string();
  ASSERT_TRUE(write_file_atomically(path, "old\n"));
  Result<void> written;
  {
    const FileSizeLimit limit(4096);
    written = write_file_atomically(path, std::string(1 << 20, 'x'));
  }
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().str(), "cannot write " + path + ": File too large");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"report.json"}) << "no report.json.tmp.PID left";
  EXPECT_EQ(test::slurp(path), "old\n") << "the old file is kept whole";
}

TEST(AtomicFile, AFailedPieceByPieceWriteLeavesNoTempFileEither) {
  test::TempDir dir;
  const std::string path = (dir.path() / ".tipc-times.json").string();
  const auto written = write_file_atomically(path, [](std::ostream& out) {
    out << "partial";
    out.setstate(std::ios::failbit);  // as a writer that gave up
  });
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().str().rfind("cannot write " + path + ": ", 0), 0u) << written.error().str();
  EXPECT_TRUE(names_in(dir.path()).empty());
}

// A process that has exited: its pid is free (until the kernel hands it out again, far later).
pid_t dead_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

TEST(AtomicFile, TheNextWriteRemovesTheTempFilesOfDeadProcessesAndKeepsThoseOfLiveOnes) {
  test::TempDir dir;
  const std::string dead = std::to_string(dead_pid());
  dir.write("report.json.tmp." + dead, "");
  dir.write("report.json.tmp.1", "");      // pid 1 is always alive: its write may still be going on
  dir.write("junit.xml.tmp." + dead, "");  // another file's: left to that file's next write
  dir.write("report.json.tmp.notapid", "");
  ASSERT_TRUE(write_file_atomically((dir.path() / "report.json").string(), "{}\n"));
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"junit.xml.tmp." + dead, "report.json", "report.json.tmp.1",
                                                            "report.json.tmp.notapid"}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
