// The download cache without a network: file:// URLs through Debian's curl, and fake wget
// programs written by the test.
#include "data/download_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::data {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;
using test::slurp;
using test::TempDir;

std::string file_url(const fs::path& path) { return "file://" + path.string(); }

std::vector<std::string> names_in(const fs::path& directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A fake tool: a shell script called `name` in `dir`.
std::string fake_tool(const TempDir& dir, const std::string& name, const std::string& body) {
  const std::string path = dir.write("bin/" + name, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(DownloadCache, CurlFetchesAFileUrlOnceAndCopiesItOut) {
  TempDir dir;
  const std::string source = dir.write("served/lib.tgz", "library bytes");
  const DownloadCache cache((dir.path() / "cache").string());
  const std::string url = file_url(source);
  EXPECT_FALSE(cache.is_cached(url));
  const auto entry = cache.fetch(url, "curl");
  ASSERT_TRUE(entry) << entry.error().str();
  EXPECT_EQ(*entry, cache.entry_path(url));
  EXPECT_TRUE(cache.is_cached(url));
  EXPECT_EQ(slurp(*entry), "library bytes");
  const std::string meta = slurp(*entry + ".meta");
  EXPECT_NE(meta.find("url=" + url + "\n"), std::string::npos) << meta;
  EXPECT_NE(meta.find("size=13\n"), std::string::npos) << meta;
  EXPECT_EQ(fs::path(*entry).filename().string().size(), 64u);  // the URL's SHA-256

  fs::remove(source);  // a cache hit needs no source any more
  const auto copied = cache.copy_out(url, (dir.path() / "repo/deploy/lib.tgz").string());
  ASSERT_TRUE(copied) << copied.error().str();
  EXPECT_EQ(slurp((dir.path() / "repo/deploy/lib.tgz").string()), "library bytes");
  EXPECT_EQ(fs::status(dir.path() / "repo/deploy/lib.tgz").permissions() & fs::perms::others_read,
            fs::perms::others_read);
  EXPECT_TRUE(*copied);
  // The same bytes again are left alone, their time too; other bytes are replaced.
  const auto time = fs::last_write_time(dir.path() / "repo/deploy/lib.tgz") - std::chrono::hours(1);
  fs::last_write_time(dir.path() / "repo/deploy/lib.tgz", time);
  EXPECT_EQ(cache.copy_out(url, (dir.path() / "repo/deploy/lib.tgz").string()), false);
  EXPECT_EQ(fs::last_write_time(dir.path() / "repo/deploy/lib.tgz"), time);
  dir.write("repo/deploy/lib.tgz", "library bytez");
  EXPECT_EQ(cache.copy_out(url, (dir.path() / "repo/deploy/lib.tgz").string()), true);
  EXPECT_EQ(slurp((dir.path() / "repo/deploy/lib.tgz").string()), "library bytes");
}

TEST(DownloadCache, AFailedDownloadNamesTheUrlAndLeavesNothing) {
  TempDir dir;
  const DownloadCache cache((dir.path() / "cache").string());
  const std::string url = file_url(dir.path() / "missing.tgz");
  const auto entry = cache.fetch(url, "curl");
  ASSERT_FALSE(entry);
  EXPECT_EQ(entry.error().exit_code, 1);
  EXPECT_NE(entry.error().str().find("cannot download " + url + ": curl: (37)"), std::string::npos)
      << entry.error().str();
  EXPECT_FALSE(cache.is_cached(url));
  EXPECT_TRUE(names_in(dir.path() / "cache").empty());
}

TEST(DownloadCache, AnInterruptedDownloadLeavesNoHalfWrittenEntry) {
  TempDir dir;
  // Writes half a file where -O says, then fails as a dropped connection would.
  const std::string wget = fake_tool(dir, "wget",
                                     "while [ \"$1\" != -O ]; do shift; done\n"
                                     "printf half > \"$2\"\necho 'Read error at byte 4 (Connection reset by peer).'\n"
                                     "exit 4\n");
  const DownloadCache cache((dir.path() / "cache").string());
  const auto entry = cache.fetch("https://example.invalid/lib.tgz", wget);
  ASSERT_FALSE(entry);
  EXPECT_NE(entry.error().str().find("Connection reset by peer"), std::string::npos) << entry.error().str();
  EXPECT_TRUE(names_in(dir.path() / "cache").empty());
}

TEST(DownloadCache, WhatAKilledDownloadLeftIsRemovedOnceStale) {
  TempDir dir;
  const std::string stale = dir.write("cache/.partial-old", "half");
  const std::string recent = dir.write("cache/.partial-new", "half");  // another run may be writing it
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(25));
  const DownloadCache cache((dir.path() / "cache").string());
  ASSERT_TRUE(cache.fetch(file_url(dir.write("served/x", "x")), "curl"));
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(recent));
}

TEST(DownloadCache, WgetGetsTheCallsFetchOptions) {
  TempDir dir;
  const std::string args = (dir.path() / "args").string();
  const std::string wget = fake_tool(dir, "wget",
                                     "echo \"$@\" > " + args +
                                         "\nwhile [ \"$1\" != -O ]; do shift; done\n"
                                         "echo ok > \"$2\"\n");
  const DownloadCache cache((dir.path() / "cache").string());
  const auto entry = cache.fetch("https://h/x.tgz", wget, {"--no-check-certificate"});
  ASSERT_TRUE(entry) << entry.error().str();
  const std::string line = slurp(args);
  const std::string expected_start = "--no-verbose --no-check-certificate -O " + cache.directory() + "/.partial-";
  EXPECT_EQ(line.substr(0, expected_start.size()), expected_start) << line;
  EXPECT_TRUE(line.ends_with(" https://h/x.tgz\n")) << line;
  EXPECT_EQ(slurp(*entry), "ok\n");
}

TEST(DownloadCache, ACacheWithoutADirectoryHoldsNothing) {
  const DownloadCache none("");
  EXPECT_FALSE(none.is_cached("https://h/x.tgz"));
  EXPECT_FALSE(none.has_mirror("https://h/r.git"));
}

TEST(DownloadCache, AGitMirrorIsKeptPerUrl) {
  TempDir dir;
  const std::string origin = (dir.path() / "origin").string();
  const std::string make = "git init -q " + test::shell_quote(origin) + " && cd " + test::shell_quote(origin) +
                           " && echo x > f && git add f && git -c user.name=t -c user.email=t@t commit -qm one";
  ASSERT_EQ(std::system(make.c_str()), 0);
  const DownloadCache cache((dir.path() / "cache").string());
  const std::string url = file_url(origin);
  EXPECT_FALSE(cache.has_mirror(url));
  const auto mirror = cache.fetch_mirror(url);
  ASSERT_TRUE(mirror) << mirror.error().str();
  EXPECT_TRUE(cache.has_mirror(url));
  EXPECT_TRUE(fs::exists(fs::path(*mirror) / "HEAD"));
  const auto missing = cache.fetch_mirror(file_url(dir.path() / "nothing"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(names_in(dir.path() / "cache"), std::vector<std::string>{fs::path(*mirror).filename().string()});
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::data
