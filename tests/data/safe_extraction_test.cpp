// The extraction engine on its own, without stamps or a scratch directory: what lands below
// the root, what it counts, and the refusals, each naming the archive and the entry.
// tests/data/extract_test.cpp covers the whole data step on top of it.
#include "data/safe_extraction.h"

#include <fcntl.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/archive_entries.h"
#include "support/temp_dir.h"

namespace tipc::data {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;
using test::ArchiveEntry;
using test::ArchiveFormat;

class SafeExtraction : public ::testing::Test {
 protected:
  test::TempDir dir_;

  fs::path root() const { return dir_.path() / "tree"; }

  Result<ExtractReport> extract(const std::vector<ArchiveEntry>& entries, const PathParts& creates,
                                const ExtractLimits& limits = {}, ArchiveFormat format = ArchiveFormat::kTar) {
    archive_ = (dir_.path() / "in.archive").string();
    test::write_archive(archive_, format, entries);
    HashingSource source(UniqueFd(::open(archive_.c_str(), O_RDONLY | O_CLOEXEC)));
    return extract_into(source, archive_, creates, limits, root());
  }

  // Refused with a message naming the archive, the entry and `why`.
  void expect_refused(const std::vector<ArchiveEntry>& entries, const PathParts& creates, const std::string& entry,
                      const std::string& why) {
    const auto result = extract(entries, creates);
    ASSERT_FALSE(result) << "unpacked although " << why;
    const std::string message = result.error().str();
    EXPECT_NE(message.find(archive_), std::string::npos) << message;
    EXPECT_NE(message.find("entry '" + entry + "': " + why), std::string::npos) << message;
  }

  std::string archive_;
};

std::string contents(const fs::path& path) {
  std::ostringstream bytes;
  bytes << std::ifstream(path, std::ios::binary).rdbuf();
  return bytes.str();
}

TEST_F(SafeExtraction, UnpacksBelowTheRootAndCountsEntriesAndBytes) {
  const auto report = extract({test::directory("m"), test::file("m/a", "12345"), test::file("m/sub/b", "678", 0755),
                               test::symlink("m/latest", "sub/b")},
                              {"m"});
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->entries, 4u);
  EXPECT_EQ(report->bytes, 8u);
  EXPECT_EQ(report->archive_sha256, "") << "the digest is the entry points' business";
  EXPECT_EQ(contents(root() / "m/a"), "12345");
  EXPECT_EQ(contents(root() / "m/latest"), "678");
  EXPECT_EQ(fs::status(root() / "m/sub/b").permissions() & fs::perms::owner_exec, fs::perms::owner_exec);
}

TEST_F(SafeExtraction, TheParentsOfTheDeclaredPathAreSkippedAndEverythingElseOutsideIsRefused) {
  ASSERT_TRUE(extract({test::directory("data"), test::file("data/set/x", "x")}, {"data", "set"}));
  EXPECT_EQ(contents(root() / "data/set/x"), "x");
  fs::remove_all(root());
  expect_refused({test::file("data/set/x", "x"), test::file("data/other", "o")}, {"data", "set"}, "data/other",
                 "outside 'data/set', the only path this archive may create");
}

TEST_F(SafeExtraction, TheArchiveMustCreateTheDeclaredPath) {
  const auto result = extract({test::directory("data")}, {"data", "set"});  // only its parent
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("the archive does not create 'data/set'"), std::string::npos)
      << result.error().str();
}

TEST_F(SafeExtraction, WithoutADeclaredPathEveryEntryIsConfinedToTheRoot) {
  const auto report = extract({test::file("a/b", "b"), test::file("c", "c"), test::symlink("a/up", "../c")}, {});
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(contents(root() / "a/up"), "c");
  fs::remove_all(root());
  expect_refused({test::symlink("a/out", "../../x")}, {}, "a/out",
                 "symlink to '../../x' points outside the destination");
}

TEST_F(SafeExtraction, PathsThatLeaveTheRootAreRefused) {
  expect_refused({test::file("../evil", "e")}, {}, "../evil", "paths containing '..' are refused");
  fs::remove_all(root());
  expect_refused({test::file("/etc/evil", "e")}, {}, "/etc/evil", "absolute paths are refused");
  fs::remove_all(root());
  expect_refused({test::file("m/x", "x"), test::hardlink("m/h", "/etc/passwd")}, {"m"}, "m/h",
                 "hardlink to the absolute path '/etc/passwd' is refused");
  fs::remove_all(root());
  expect_refused({test::symlink("m/l", "."), test::file("m/l/x", "x")}, {"m"}, "m/l/x",
                 "'m/l' is a symlink or a file, not a directory");
}

TEST_F(SafeExtraction, TheLimitsStopTheExtraction) {
  ExtractLimits limits;
  limits.max_entries = 1;
  const auto result = extract({test::file("a", "a"), test::file("b", "b")}, {}, limits);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("entry 'b': the archive has more than 1 entries (max_entries)"),
            std::string::npos)
      << result.error().str();
}

TEST_F(SafeExtraction, TheRootMustNotExistYet) {
  fs::create_directories(root());
  const auto result = extract({test::file("a", "a")}, {});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find(root().string() + ": cannot create"), std::string::npos) << result.error().str();
}

TEST(SafeExtractionPaths, SplitPathDropsEmptyAndDotComponentsButKeepsDotDot) {
  EXPECT_EQ(detail::split_path("a/./b//c/"), (PathParts{"a", "b", "c"}));
  EXPECT_EQ(detail::split_path("./"), PathParts{});
  EXPECT_EQ(detail::split_path("a/../b"), (PathParts{"a", "..", "b"}));
}

TEST(SafeExtractionPaths, ADanglingSymlinkIsPresent) {
  const test::TempDir dir;
  fs::create_symlink("missing", dir.path() / "dangling");
  EXPECT_TRUE(detail::present(dir.path() / "dangling"));
  EXPECT_FALSE(detail::present(dir.path() / "missing"));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::data
