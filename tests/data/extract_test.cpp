#include "data/extract.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/sha256.h"
#include "support/archive_entries.h"
#include "support/temp_dir.h"

namespace tipc::data {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

using Format = test::ArchiveFormat;
using Entry = test::ArchiveEntry;
using test::directory;
using test::file;
using test::hardlink;
using test::special;
using test::symlink;
using test::write_archive;

std::string random_bytes(std::size_t size) {
  std::mt19937 generator(42);
  std::string bytes(size, '\0');
  for (char& byte : bytes) byte = static_cast<char>(generator());
  return bytes;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Every path below dir, relative and sorted; symlinks are listed, not followed.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    paths.push_back(entry.path().lexically_relative(dir).generic_string());
  }
  std::ranges::sort(paths);
  return paths;
}

// The SHA-256 of a file's bytes, read whole: the digest the stamp must hold.
std::string digest_of_file(const fs::path& path) {
  const std::string bytes = read_file(path);
  Sha256 hash;
  hash.update(bytes.data(), bytes.size());
  return hash.hex_digest();
}

unsigned mode_of(const fs::path& path) { return static_cast<unsigned>(fs::symlink_status(path).permissions()); }

// What is below dir: type, mode and contents of each path, to compare trees exactly.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> tree;
  for (const auto& name : listing(dir)) {
    const fs::path path = dir / name;
    if (fs::is_symlink(fs::symlink_status(path))) {
      tree[name] = "symlink -> " + fs::read_symlink(path).string();
    } else if (fs::is_directory(path)) {
      tree[name] = "directory " + std::to_string(mode_of(path));
    } else {
      tree[name] = "file " + std::to_string(mode_of(path)) + " " + read_file(path);
    }
  }
  return tree;
}

ino_t inode_of(const fs::path& path) {
  struct stat status {};
  EXPECT_EQ(::lstat(path.c_str(), &status), 0) << path;
  return status.st_ino;
}

std::vector<Entry> good_tree() {
  return {directory("alexnet"),
          file("alexnet/README", "AlexNet lite data\n"),
          directory("alexnet/images"),
          file("alexnet/images/0001.bin", random_bytes(100 * 1024)),
          file("alexnet/run.sh", "#!/bin/sh\necho ok\n", 0755),
          symlink("alexnet/latest", "images/0001.bin")};
}

class Extract : public ::testing::Test {
 protected:
  // Archives live apart from the destination's parent, so that everything under
  // parent_ was written by prepare_data.
  test::TempDir archives_;
  test::TempDir parent_;

  fs::path destination() const { return parent_.path() / "dest"; }

  std::string archive(const std::string& name, Format format, const std::vector<Entry>& entries) const {
    const fs::path path = archives_.path() / name;
    write_archive(path, format, entries);
    return path.string();
  }

  Result<ExtractReport> prepare(const std::string& archive_path, const ExtractLimits& limits = {},
                                const std::string& creates = "alexnet") const {
    return prepare_data({archive_path, destination().string(), creates}, limits);
  }

  // The archive is refused with a message naming `named`, and nothing is left anywhere
  // below the destination's parent but the (empty) destination itself.
  void expect_refused(const std::vector<Entry>& entries, const std::string& named, const ExtractLimits& limits = {},
                      Format format = Format::kTar) const {
    const auto path = archive("evil.archive", format, entries);
    const auto result = prepare(path, limits);
    ASSERT_FALSE(result) << "extracted although it names " << named;
    const std::string message = result.error().str();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(named), std::string::npos) << message;
    EXPECT_EQ(listing(parent_.path()), std::vector<std::string>{"dest"});
  }
};

TEST_F(Extract, TarTarGzAndZipProduceTheSameTree) {
  const std::map<std::string, std::string> expected = {
      {"alexnet", "directory 493"},
      {"alexnet/README", "file 420 AlexNet lite data\n"},
      {"alexnet/images", "directory 493"},
      {"alexnet/images/0001.bin", "file 420 " + random_bytes(100 * 1024)},
      {"alexnet/latest", "symlink -> images/0001.bin"},
      {"alexnet/run.sh", "file 493 #!/bin/sh\necho ok\n"}};
  for (const auto& [name, format] :
       {std::pair{"data.tar", Format::kTar}, {"data.tar.gz", Format::kTarGz}, {"data.zip", Format::kZip}}) {
    const auto destination = parent_.path() / name;
    const auto report = prepare_data({archive(name, format, good_tree()), destination.string(), "alexnet"});
    ASSERT_TRUE(report) << name << ": " << report.error().str();
    EXPECT_FALSE(report->skipped);
    EXPECT_EQ(report->entries, 6u) << name;
    EXPECT_EQ(report->bytes, 100u * 1024 + 18 + 18) << name;
    auto tree = snapshot(destination);
    EXPECT_EQ(tree.erase(".alexnet.tipc-stamp"), 1u) << name;
    EXPECT_EQ(tree, expected) << name;
  }
}

// The digest is taken of the bytes as they are unpacked: the whole file in order, also
// for zip, whose reader seeks, and for tar's zero blocks after its end marker. The
// archives span many of the reader's blocks (256 KiB, four in turn, hashed on a thread).
TEST_F(Extract, StampHoldsTheDigestOfTheWholeArchive) {
  auto entries = good_tree();
  entries.push_back(file("alexnet/large.bin", random_bytes(5 << 20)));
  for (const auto& [name, format] :
       {std::pair{"data.tar", Format::kTar}, {"data.tar.gz", Format::kTarGz}, {"data.zip", Format::kZip}}) {
    const auto path = archive(name, format, entries);
    const auto destination = parent_.path() / name;
    const auto report = prepare_data({path, destination.string(), "alexnet"});
    ASSERT_TRUE(report) << name << ": " << report.error().str();
    const std::string digest = digest_of_file(path);
    EXPECT_EQ(report->archive_sha256, digest) << name;
    EXPECT_EQ(read_file(destination / ".alexnet.tipc-stamp"), digest + "\n") << name;
  }
}

TEST_F(Extract, EntriesThatMoveBetweenDirectoriesLandWhereTheyBelong) {
  const auto path = archive(
      "mixed.tar", Format::kTar,
      {file("alexnet/a/1", "a1"), file("alexnet/b/1", "b1"), file("alexnet/a/b/2", "ab2"), file("alexnet/a/3", "a3"),
       file("alexnet/b/c/d/4", "bcd4"), file("alexnet/5", "5"), file("alexnet/a/b/6", "ab6")});
  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  const std::map<std::string, std::string> expected = {
      {"alexnet", "directory 493"},        {"alexnet/5", "file 420 5"},       {"alexnet/a", "directory 493"},
      {"alexnet/a/1", "file 420 a1"},      {"alexnet/a/3", "file 420 a3"},    {"alexnet/a/b", "directory 493"},
      {"alexnet/a/b/2", "file 420 ab2"},   {"alexnet/a/b/6", "file 420 ab6"}, {"alexnet/b", "directory 493"},
      {"alexnet/b/1", "file 420 b1"},      {"alexnet/b/c", "directory 493"},  {"alexnet/b/c/d", "directory 493"},
      {"alexnet/b/c/d/4", "file 420 bcd4"}};
  auto tree = snapshot(destination());
  tree.erase(".alexnet.tipc-stamp");
  EXPECT_EQ(tree, expected);
}

TEST_F(Extract, LaterEntryReplacesAnEarlierFileOrLinkOfTheSameName) {
  const auto path = archive(
      "again.tar", Format::kTar,
      {file("alexnet/x", "one"), file("alexnet/x", "two"), symlink("alexnet/l", "x"), file("alexnet/l", "plain"),
       file("alexnet/m", "m"), symlink("alexnet/m", "x"), file("alexnet/h", "h"), hardlink("alexnet/h", "alexnet/x")});
  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(read_file(destination() / "alexnet/x"), "two");
  EXPECT_EQ(snapshot(destination())["alexnet/l"], "file 420 plain");
  EXPECT_EQ(snapshot(destination())["alexnet/m"], "symlink -> x");
  EXPECT_EQ(inode_of(destination() / "alexnet/h"), inode_of(destination() / "alexnet/x"));
}

TEST_F(Extract, RefusesEntryThatWouldReplaceAnUnpackedDirectory) {
  expect_refused({file("alexnet/d/inside", "x"), file("alexnet/d", "flat")},
                 "entry 'alexnet/d': a directory of that name was unpacked before it");
  expect_refused({directory("alexnet/d"), directory("alexnet/e"), symlink("alexnet/d", "e")},
                 "entry 'alexnet/d': a directory of that name was unpacked before it");
}

TEST_F(Extract, ModesKeepExecuteBitsAndDropSetuidAndGroupWrite) {
  const auto path = archive("modes.tar", Format::kTar,
                            {directory("alexnet", 0700), file("alexnet/setuid", "x", 04777),
                             file("alexnet/shared", "x", 0666), file("alexnet/private", "x", 0700)});
  ASSERT_TRUE(prepare(path));
  EXPECT_EQ(mode_of(destination() / "alexnet"), 0755u);
  EXPECT_EQ(mode_of(destination() / "alexnet/setuid"), 0755u);
  EXPECT_EQ(mode_of(destination() / "alexnet/shared"), 0644u);
  EXPECT_EQ(mode_of(destination() / "alexnet/private"), 0700u);
}

TEST_F(Extract, HardlinkToAnEarlierFileSharesItsInode) {
  const auto path = archive("links.tar", Format::kTar,
                            {file("alexnet/weights", "w"), hardlink("alexnet/weights.copy", "alexnet/weights")});
  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(inode_of(destination() / "alexnet/weights"), inode_of(destination() / "alexnet/weights.copy"));
}

TEST_F(Extract, NestedCreatesPathAcceptsItsParentDirectories) {
  const auto path = archive("nested.tar", Format::kTar,
                            {directory("./"), directory("lite_data"), file("lite_data/alexnet/train.txt", "1\n")});
  const auto report = prepare(path, {}, "lite_data/alexnet");
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(read_file(destination() / "lite_data/alexnet/train.txt"), "1\n");
  EXPECT_TRUE(fs::exists(destination() / ".lite_data_alexnet.tipc-stamp"));
}

TEST_F(Extract, DeclaredPathMayBeASingleFile) {
  const auto path = archive("weights.tar", Format::kTar, {file("alexnet.pdparams", "weights")});
  const auto report = prepare(path, {}, "alexnet.pdparams");
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(listing(destination()), (std::vector<std::string>{".alexnet.pdparams.tipc-stamp", "alexnet.pdparams"}));
}

TEST_F(Extract, SecondCallIsSkippedAndLeavesTheTreeUntouched) {
  const auto path = archive("data.tar.gz", Format::kTarGz, good_tree());
  ASSERT_TRUE(prepare(path));
  const auto before = snapshot(destination());
  const auto readme_inode = inode_of(destination() / "alexnet/README");
  const auto tree_inode = inode_of(destination() / "alexnet");
  const auto stamp_time = fs::last_write_time(destination() / ".alexnet.tipc-stamp");

  const auto again = prepare(path);
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_TRUE(again->skipped);
  EXPECT_EQ(again->entries, 0u);
  EXPECT_FALSE(again->archive_sha256.empty());
  EXPECT_EQ(inode_of(destination() / "alexnet/README"), readme_inode);
  EXPECT_EQ(inode_of(destination() / "alexnet"), tree_inode);
  EXPECT_EQ(fs::last_write_time(destination() / ".alexnet.tipc-stamp"), stamp_time);
  EXPECT_EQ(snapshot(destination()), before);
}

// The stamp records the archive's file state only once the archive has been left alone
// for a second (a change within the same timestamp tick keeps the ctime).
void let_settle() { std::this_thread::sleep_for(std::chrono::milliseconds(1100)); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(Extract, ASettledArchiveIsNotReadAgainUntilItsFileStateChanges) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  let_settle();
  const auto first = prepare(path);
  ASSERT_TRUE(first) << first.error().str();
  EXPECT_TRUE(first->hashed);
  const auto stamp = lines_of(read_file(destination() / ".alexnet.tipc-stamp"));
  ASSERT_EQ(stamp.size(), 2u);
  EXPECT_EQ(stamp[0], first->archive_sha256);
  EXPECT_EQ(stamp[1].rfind("size=" + std::to_string(fs::file_size(path)) + " mtime=", 0), 0u) << stamp[1];

  const auto second = prepare(path);
  ASSERT_TRUE(second) << second.error().str();
  EXPECT_TRUE(second->skipped);
  EXPECT_FALSE(second->hashed) << "the recorded state matched: the archive was not read";
  EXPECT_EQ(second->archive_sha256, first->archive_sha256);

  // The same size and mtime, other bytes: the ctime still tells.
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  const std::string text = read_file(path);
  const auto at = text.find("AlexNet lite data");
  ASSERT_NE(at, std::string::npos);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(at));
    file.write("B", 1);
  }
  const timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  const auto third = prepare(path);
  ASSERT_TRUE(third) << third.error().str();
  EXPECT_FALSE(third->skipped);
  EXPECT_TRUE(third->hashed);
  EXPECT_EQ(read_file(destination() / "alexnet/README"), "BlexNet lite data\n");
}

TEST_F(Extract, AStampWithoutFileStateLearnsItWhenTheDigestMatches) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  let_settle();
  ASSERT_TRUE(prepare(path));
  const fs::path stamp = destination() / ".alexnet.tipc-stamp";
  const std::string digest = lines_of(read_file(stamp)).at(0);
  std::ofstream(stamp, std::ios::trunc) << digest << "\n";  // as an older tipc-run wrote it

  const auto hashed = prepare(path);
  ASSERT_TRUE(hashed) << hashed.error().str();
  EXPECT_TRUE(hashed->skipped);
  EXPECT_TRUE(hashed->hashed);
  EXPECT_EQ(lines_of(read_file(stamp)).size(), 2u) << "the stamp has the state again";
  const auto quick = prepare(path);
  ASSERT_TRUE(quick) << quick.error().str();
  EXPECT_FALSE(quick->hashed);
}

TEST_F(Extract, ATouchedArchiveIsHashedAndTheStampKeptUntilItSettles) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  let_settle();
  ASSERT_TRUE(prepare(path));
  const fs::path stamp = destination() / ".alexnet.tipc-stamp";
  const std::string recorded = read_file(stamp);
  fs::last_write_time(path, fs::last_write_time(path) - std::chrono::hours(1));  // its ctime is now

  const auto again = prepare(path);
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_TRUE(again->skipped);
  EXPECT_TRUE(again->hashed);
  EXPECT_EQ(read_file(stamp), recorded) << "a state that just changed is not recorded";
}

TEST_F(Extract, MissingTreeIsExtractedAgainDespiteTheStamp) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  ASSERT_TRUE(prepare(path));
  fs::remove_all(destination() / "alexnet");
  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_FALSE(report->skipped);
  EXPECT_EQ(read_file(destination() / "alexnet/README"), "AlexNet lite data\n");
}

TEST_F(Extract, ChangedArchiveIsExtractedAgainAndStaleFilesAreGone) {
  const auto path = archive("data.tar", Format::kTar, {file("alexnet/README", "one"), file("alexnet/old.txt", "old")});
  ASSERT_TRUE(prepare(path));
  archive("data.tar", Format::kTar, {file("alexnet/README", "two"), file("alexnet/new.txt", "new")});

  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_FALSE(report->skipped);
  EXPECT_EQ(listing(destination()),
            (std::vector<std::string>{".alexnet.tipc-stamp", "alexnet", "alexnet/README", "alexnet/new.txt"}));
  EXPECT_EQ(read_file(destination() / "alexnet/README"), "two");
  EXPECT_EQ(read_file(destination() / ".alexnet.tipc-stamp"), digest_of_file(path) + "\n");
}

TEST_F(Extract, FailedReextractionKeepsThePreviousTreeAndStamp) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  ASSERT_TRUE(prepare(path));
  const auto before = snapshot(destination());
  archive("data.tar", Format::kTar, {file("alexnet/README", "new"), file("../../../evil", "x")});

  const auto report = prepare(path);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("../../../evil"), std::string::npos) << report.error().str();
  EXPECT_EQ(snapshot(destination()), before);
  EXPECT_FALSE(fs::exists(parent_.path() / "evil"));
}

TEST_F(Extract, RefusesDotDotAndLeavesNothingOutside) {
  // Three levels up from the extraction directory is the destination's parent.
  for (const char* evil : {"../evil", "../../../evil"}) {
    expect_refused({file("alexnet/ok", "ok"), file(evil, "x")}, evil);
  }
}

TEST_F(Extract, RefusesDotDotInsideTheDeclaredPath) {
  expect_refused({file("alexnet/ok", "ok"), file("alexnet/../../evil", "x")}, "alexnet/../../evil");
}

TEST_F(Extract, RefusesDotDotInZipArchives) {
  expect_refused({file("alexnet/ok", "ok"), file("../../../evil", "x")}, "../../../evil", {}, Format::kZip);
}

TEST_F(Extract, RefusesAbsolutePaths) {
  for (const std::string& evil : {std::string("/abs/evil"), (parent_.path() / "evil").string()}) {
    expect_refused({file("alexnet/ok", "ok"), file(evil, "x")}, evil);
  }
}

TEST_F(Extract, RefusesSymlinkEscapingTheDestinationAndFilesWrittenThroughIt) {
  for (const char* outside : {"../../outside", "../../../../outside"}) {
    fs::create_directories(parent_.path() / "outside");
    const std::vector<Entry> entries = {directory("alexnet"), symlink("alexnet/link", outside),
                                        file("alexnet/link/x", "x")};
    const auto result = prepare(archive("evil.tar", Format::kTar, entries));
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().str().find("alexnet/link"), std::string::npos) << result.error().str();
    EXPECT_EQ(listing(parent_.path()), (std::vector<std::string>{"dest", "outside"}));
    fs::remove(parent_.path() / "outside");
  }
}

// Inside the destination but outside the declared path: once the tree is in place, the
// link would reach a sibling data set of the destination.
TEST_F(Extract, RefusesSymlinkToASiblingOfTheDeclaredPath) {
  expect_refused({directory("alexnet"), symlink("alexnet/other", "../resnet/weights")}, "points outside 'alexnet'");
  expect_refused({directory("alexnet"), symlink("alexnet/up", ".."), file("alexnet/x", "x")}, "alexnet/up");
  expect_refused({symlink("alexnet", "images"), directory("images")}, "points outside 'alexnet'");
}

// Outside the declared path the scratch tree has none of the destination's contents (a
// sibling there may be a symlink), so a link may not pass through it even to come back.
TEST_F(Extract, RefusesSymlinkThatLeavesTheDeclaredPathOnItsWay) {
  expect_refused({directory("alexnet"), symlink("alexnet/l", "../resnet/../alexnet/x"), file("alexnet/x", "x")},
                 "points outside 'alexnet'");
  expect_refused({directory("alexnet"), symlink("alexnet/l", "../alexnet/x"), file("alexnet/x", "x")},
                 "points outside 'alexnet'");
}

TEST_F(Extract, SymlinksMayClimbAndComeBackInsideTheDeclaredPath) {
  const auto path = archive("links.tar", Format::kTar,
                            {file("alexnet/images/1.bin", "1"), symlink("alexnet/images/self", "../images/1.bin"),
                             symlink("alexnet/top", "images/../images/1.bin")});
  const auto report = prepare(path);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(read_file(destination() / "alexnet/images/self"), "1");
  EXPECT_EQ(read_file(destination() / "alexnet/top"), "1");
}

TEST_F(Extract, RefusesAbsoluteSymlink) {
  expect_refused({directory("alexnet"), symlink("alexnet/passwd", "/etc/passwd")}, "alexnet/passwd");
}

TEST_F(Extract, RefusesWritingThroughASymlinkEvenOneInside) {
  expect_refused({directory("alexnet/real"), symlink("alexnet/link", "real"), file("alexnet/link/x", "x")},
                 "alexnet/link/x");
}

TEST_F(Extract, RefusesSymlinkThatALaterSymlinkRedirectsOutside) {
  // When l1 is unpacked, l2 does not exist and "l2/.." is alexnet/d; once l2 points at
  // alexnet (inside), l1 resolves to alexnet's parent.
  expect_refused({directory("alexnet/d"), symlink("alexnet/d/l1", "l2/.."), symlink("alexnet/d/l2", "..")},
                 "alexnet/d/l1");
}

TEST_F(Extract, RefusesHardlinkToAnAbsolutePath) {
  expect_refused({file("alexnet/ok", "ok"), hardlink("alexnet/passwd", "/etc/passwd")}, "alexnet/passwd");
}

TEST_F(Extract, RefusesHardlinkWithDotDot) {
  expect_refused({file("alexnet/ok", "ok"), hardlink("alexnet/h", "alexnet/../../../victim")}, "alexnet/h");
}

TEST_F(Extract, RefusesCharacterDevices) {
  expect_refused({file("alexnet/ok", "ok"), special("alexnet/null", AE_IFCHR)}, "alexnet/null");
}

TEST_F(Extract, RefusesFifos) {
  expect_refused({file("alexnet/ok", "ok"), special("alexnet/pipe", AE_IFIFO)}, "alexnet/pipe");
}

TEST_F(Extract, RefusesEntriesOutsideTheDeclaredPath) {
  for (const char* other : {"other/file", "alexnet2/file", "top-level-file"}) {
    expect_refused({file("alexnet/ok", "ok"), file(other, "x")}, other);
  }
}

TEST_F(Extract, StopsAtMaxEntries) {
  std::vector<Entry> bomb;
  for (int i = 0; i < 20; ++i) bomb.push_back(file("alexnet/f" + std::to_string(i), "x"));
  expect_refused(bomb, "alexnet/f10", {.max_entries = 10});
}

TEST_F(Extract, StopsAtMaxDepth) {
  std::string deep = "alexnet";
  for (int i = 0; i < 300; ++i) deep += "/d";
  expect_refused({file(deep + "/f", "x")}, "deeper than max_depth (256 path components)");
  std::string allowed = "alexnet";
  for (int i = 0; i < 254; ++i) allowed += "/d";
  ASSERT_TRUE(prepare(archive("deep.tar", Format::kTar, {file(allowed + "/f", "x")})));
}

TEST_F(Extract, StopsAtMaxEntryBytes) {
  expect_refused({file("alexnet/small", "x"), file("alexnet/big", std::string(5000, 'b'))}, "alexnet/big",
                 {.max_entry_bytes = 4096});
}

TEST_F(Extract, StopsAtMaxTotalBytes) {
  const std::string kilobyte(1000, 'k');
  expect_refused({file("alexnet/a", kilobyte), file("alexnet/b", kilobyte), file("alexnet/c", kilobyte)}, "alexnet/c",
                 {.max_total_bytes = 2500});
}

TEST_F(Extract, SparseHolesCountTowardsTheSizeLimit) {
  // The archive stores 4 KiB of data; the file it describes unpacks to 1 MiB.
  Entry sparse = file("alexnet/sparse", std::string(4096, 's'));
  sparse.sparse_size = 1 << 20;
  EXPECT_LT(fs::file_size(archive("sparse.tar", Format::kTar, {sparse})), 64u * 1024);
  expect_refused({sparse}, "alexnet/sparse", {.max_entry_bytes = 64 * 1024});
}

// GNU tar's sparse formats, each a tar of alexnet/tail_hole (4 KiB of data, then a hole to
// 1 MiB) and alexnet/all_hole (1 MiB of hole): no data block reaches the end of either.
constexpr std::size_t kSparseFileBytes = 1 << 20;
const std::vector<std::string> kSparseFormats = {"--format=gnu", "--format=posix --sparse-version=0.0",
                                                 "--format=posix --sparse-version=0.1",
                                                 "--format=posix --sparse-version=1.0"};

std::string sparse_tar(const fs::path& dir, const std::string& format) {
  const fs::path tree = dir / "sparse-tree";
  fs::create_directories(tree / "alexnet");
  std::ofstream(tree / "alexnet/tail_hole", std::ios::binary) << std::string(4096, 'd');
  fs::resize_file(tree / "alexnet/tail_hole", kSparseFileBytes);
  std::ofstream(tree / "alexnet/all_hole", std::ios::binary).close();
  fs::resize_file(tree / "alexnet/all_hole", kSparseFileBytes);
  const fs::path tar = dir / "sparse.tar";
  fs::remove(tar);
  const std::string command = "tar --sparse " + format + " -cf " + tar.string() + " -C " + tree.string() + " alexnet";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_LT(fs::file_size(tar), 64u * 1024) << format << ": the files are stored sparse";
  return tar.string();
}

TEST_F(Extract, SparseFilesEndingInAHoleComeOutAtTheirFullSizeInEverySparseFormat) {
  const std::string tail = std::string(4096, 'd') + std::string(kSparseFileBytes - 4096, '\0');
  for (const std::string& format : kSparseFormats) {
    const auto path = sparse_tar(archives_.path(), format);
    const auto destination = parent_.path() / std::to_string(&format - kSparseFormats.data());
    const auto report = prepare_data({path, destination.string(), "alexnet"});
    ASSERT_TRUE(report) << format << ": " << report.error().str();
    EXPECT_EQ(report->bytes, 2 * kSparseFileBytes) << format;
    EXPECT_EQ(fs::file_size(destination / "alexnet/tail_hole"), kSparseFileBytes) << format;
    EXPECT_EQ(fs::file_size(destination / "alexnet/all_hole"), kSparseFileBytes) << format;
    EXPECT_TRUE(read_file(destination / "alexnet/tail_hole") == tail) << format;  // not printed: 1 MiB
    EXPECT_TRUE(read_file(destination / "alexnet/all_hole") == std::string(kSparseFileBytes, '\0')) << format;
  }
}

TEST_F(Extract, SparseFilesCountAtTheirFullSizeTowardsTheLimitsAlsoWhenUnpackedBySetup) {
  const auto path = sparse_tar(archives_.path(), kSparseFormats.back());
  const auto whole = unpack_archive({path, destination().string()});
  ASSERT_TRUE(whole) << whole.error().str();
  EXPECT_EQ(whole->bytes, 2 * kSparseFileBytes);
  EXPECT_EQ(fs::file_size(destination() / "alexnet/all_hole"), kSparseFileBytes);
  for (const std::string& format : kSparseFormats) {
    const auto sparse = sparse_tar(archives_.path(), format);
    const auto too_large = prepare_data({sparse, (parent_.path() / "limited").string(), "alexnet"},
                                        {.max_total_bytes = kSparseFileBytes + kSparseFileBytes / 2});
    ASSERT_FALSE(too_large) << format;
    EXPECT_NE(too_large.error().str().find("max_total_bytes"), std::string::npos) << too_large.error().str();
    const auto entry_too_large =
        unpack_archive({sparse, (parent_.path() / "limited").string()}, {.max_entry_bytes = kSparseFileBytes / 2});
    ASSERT_FALSE(entry_too_large) << format;
    EXPECT_NE(entry_too_large.error().str().find("max_entry_bytes"), std::string::npos)
        << entry_too_large.error().str();
  }
}

// In the locale the test runs in (tipc-run never calls setlocale): "C", whose ASCII a
// zip's UTF-8 names cannot be converted to.
TEST_F(Extract, Utf8NamesInZipAndTarAreUnpackedAsTheyAre) {
  const std::vector<Entry> entries = {directory("数据"), file("数据/图像.txt", "像素\n"), file("数据/ünï.bin", "x")};
  for (const auto& [name, format] : {std::pair{"数据.zip", Format::kZip}, {"数据.tar", Format::kTar}}) {
    const auto path = archive(name, format, entries);
    const auto destination = parent_.path() / name;
    const auto report = prepare_data({path, destination.string(), "数据"});
    ASSERT_TRUE(report) << name << ": " << report.error().str();
    EXPECT_EQ(read_file(destination / "数据/图像.txt"), "像素\n") << name;
    EXPECT_EQ(read_file(destination / "数据/ünï.bin"), "x") << name;
    const auto unpacked = unpack_archive({path, (parent_.path() / ("setup-" + std::string(name))).string()});
    ASSERT_TRUE(unpacked) << name << ": " << unpacked.error().str();
    EXPECT_EQ(read_file(parent_.path() / ("setup-" + std::string(name)) / "数据/图像.txt"), "像素\n") << name;
  }
}

TEST_F(Extract, RefusesTruncatedTarGz) {
  const auto whole = archive("data.tar.gz", Format::kTarGz, {file("alexnet/blob", random_bytes(256 * 1024))});
  const std::string bytes = read_file(whole);
  std::ofstream(whole, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);

  const auto result = prepare(whole);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find(whole + ": truncated or corrupt archive: "), std::string::npos)
      << result.error().str();
  EXPECT_EQ(listing(parent_.path()), std::vector<std::string>{"dest"});
}

TEST_F(Extract, RefusesBytesThatAreNoArchive) {
  const auto path = archives_.write("data.tar", "this is not an archive\n");
  const auto result = prepare(path);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find(path + ": truncated or corrupt archive: "), std::string::npos)
      << result.error().str();
  EXPECT_EQ(listing(parent_.path()), std::vector<std::string>{"dest"});
}

TEST_F(Extract, RefusesArchiveThatDoesNotCreateTheDeclaredPath) {
  const auto path = archive("empty.tar", Format::kTar, {directory("./")});
  const auto result = prepare(path);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("does not create 'alexnet'"), std::string::npos) << result.error().str();
  EXPECT_EQ(listing(parent_.path()), std::vector<std::string>{"dest"});
}

TEST_F(Extract, MissingArchiveIsAnErrorNamingIt) {
  const auto missing = (archives_.path() / "absent.tar").string();
  const auto result = prepare(missing);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find(missing), std::string::npos) << result.error().str();
  EXPECT_TRUE(listing(parent_.path()).empty());
}

TEST_F(Extract, RefusesCreatesThatIsNotAPlainRelativePath) {
  const auto path = archive("data.tar", Format::kTar, good_tree());
  for (const char* creates : {"", ".", "/alexnet", "../alexnet", "alexnet/../.."}) {
    const auto result = prepare(path, {}, creates);
    ASSERT_FALSE(result) << "'" << creates << "'";
    EXPECT_NE(result.error().str().find("'creates'"), std::string::npos) << result.error().str();
  }
  EXPECT_TRUE(listing(parent_.path()).empty());
}

// unpack_archive: a runner's `tar xf` replayed, with no declared path.
TEST_F(Extract, UnpackMergesIntoTheDirectoryAndStampsTheTopLevelEntries) {
  auto entries = good_tree();
  entries.push_back(file("top.txt", "top\n"));
  const auto path = archive("lib.tgz", Format::kTarGz, entries);
  fs::create_directories(destination() / "alexnet");
  std::ofstream(destination() / "alexnet" / "old") << "kept";
  std::ofstream(destination() / "top.txt") << "replaced";
  const auto result = unpack_archive({path, destination().string()});
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_FALSE(result->skipped);
  EXPECT_EQ(read_file(destination() / "alexnet" / "old"), "kept");
  EXPECT_EQ(read_file(destination() / "alexnet" / "README"), "AlexNet lite data\n");
  EXPECT_EQ(read_file(destination() / "top.txt"), "top\n");
  EXPECT_EQ(fs::read_symlink(destination() / "alexnet" / "latest"), "images/0001.bin");
  EXPECT_EQ(result->stamp, (destination() / ".lib.tgz.tipc-stamp").string());
  const std::string stamp = read_file(result->stamp);
  EXPECT_TRUE(stamp.starts_with(digest_of_file(path) + "\n")) << stamp;
  EXPECT_TRUE(stamp.ends_with("\nalexnet\ntop.txt\n")) << stamp;
  EXPECT_EQ(listing(destination()),
            (std::vector<std::string>{".lib.tgz.tipc-stamp", "alexnet", "alexnet/README", "alexnet/images",
                                      "alexnet/images/0001.bin", "alexnet/latest", "alexnet/old", "alexnet/run.sh",
                                      "top.txt"}));  // no scratch directory left
}

TEST_F(Extract, UnpackIsSkippedWhileTheArchiveAndItsEntriesAreThere) {
  auto entries = good_tree();
  entries.push_back(file("top.txt", "top\n"));
  const auto path = archive("lib.tar", Format::kTar, entries);
  ASSERT_TRUE(unpack_archive({path, destination().string()}));
  std::ofstream(destination() / "alexnet" / "README") << "edited";
  const auto again = unpack_archive({path, destination().string()});
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_TRUE(again->skipped);
  EXPECT_EQ(read_file(destination() / "alexnet" / "README"), "edited");
  fs::remove(destination() / "top.txt");
  const auto after_removal = unpack_archive({path, destination().string()});
  ASSERT_TRUE(after_removal) << after_removal.error().str();
  EXPECT_FALSE(after_removal->skipped);
  EXPECT_EQ(read_file(destination() / "top.txt"), "top\n");
}

TEST_F(Extract, UnpackConfinesEveryEntryToTheDestination) {
  for (const auto& entries : {std::vector<Entry>{file("../escape", "x")},
                              std::vector<Entry>{symlink("up", "../.."), file("up/escape", "x")}}) {
    const auto path = archive("evil.tar", Format::kTar, entries);
    const auto result = unpack_archive({path, destination().string()});
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().str().find(path), std::string::npos) << result.error().str();
    EXPECT_EQ(listing(parent_.path()), std::vector<std::string>{"dest"});
  }
  const auto path = archive("link.tar", Format::kTar, {symlink("up", "..")});
  const auto result = unpack_archive({path, destination().string()});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("points outside the destination"), std::string::npos) << result.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::data
