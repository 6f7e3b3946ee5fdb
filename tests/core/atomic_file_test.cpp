// Whole-file writes: the file appears complete or not at all, and a failure is an Error
// naming the file and the system's reason.
#include "core/atomic_file.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {

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

}  // namespace
}  // namespace tipc
