// setup/replay: the housekeeping of a setup stage replayed in a scratch repository, called
// directly (tests/cli/setup_command_test.cpp runs the same through `tipc-run setup`).
#include "setup/replay.h"

#include <chrono>
#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::setup {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

class SetupActionReplay : public ::testing::Test {
 protected:
  test::TempDir repo_, cache_, outside_;
  std::ostringstream out_;

  ReplayContext context(bool offline = false, std::vector<std::string> allowed = {}) {
    return make_replay_context({fs::canonical(repo_.path()), std::move(allowed), cache_.path().string(), offline},
                               out_);
  }

  // The action word's outcome: what happened, or "error: " and the message.
  std::string replay(const std::string& word, bool offline = false, std::vector<std::string> allowed = {}) {
    const auto action = plan::parse_setup_action_word(word);
    if (!action) return "parse error: " + action.error().str();
    const auto done = replay_action(*action, context(offline, std::move(allowed)));
    return done ? *done : "error: " + done.error().str();
  }

  fs::path in_repo(const std::string& path) const { return repo_.path() / path; }
};

TEST_F(SetupActionReplay, MakesWhatIsMissingAndSaysWhatWasThere) {
  fs::create_directories(in_repo("deploy/old"));
  EXPECT_EQ(replay("cd deploy && mkdir -p old new"), "made deploy/new; already there: deploy/old");
  EXPECT_TRUE(fs::is_directory(in_repo("deploy/new")));
  EXPECT_EQ(replay("cd deploy && mkdir new"), "already there: deploy/new");
}

TEST_F(SetupActionReplay, RefusesARemovalThroughASymlinkThatLeavesTheRepository) {
  outside_.write("precious", "x");
  fs::create_directory_symlink(outside_.path(), in_repo("build"));
  const std::string refused = replay("cd . && rm -rf build/precious");
  EXPECT_NE(refused.find("refused: "), std::string::npos) << refused;
  EXPECT_NE(refused.find("once its symlinks are followed"), std::string::npos) << refused;
  EXPECT_EQ(test::slurp((outside_.path() / "precious").string()), "x");
  // The same directory named as allowed (the run's output tree) may be written.
  EXPECT_EQ(replay("cd . && mkdir -p " + (outside_.path() / "out").string(), false, {outside_.path().string()}),
            "made " + (outside_.path() / "out").string());
}

TEST_F(SetupActionReplay, KeepsABuildDirectoryNewerThanItsSourcesAndRemovesAStaleOne) {
  repo_.write("cpp/src/main.cc", "int main() {}\n");
  repo_.write("cpp/build/CMakeCache.txt", "cache\n");
  const auto old = fs::last_write_time(in_repo("cpp/build/CMakeCache.txt")) - std::chrono::hours(1);
  fs::last_write_time(in_repo("cpp/src/main.cc"), old);
  const std::string kept = replay("cd cpp && rm -rf build");
  EXPECT_EQ(kept.rfind("kept cpp/build: up to date with its sources", 0), 0u) << kept;
  EXPECT_TRUE(fs::exists(in_repo("cpp/build/CMakeCache.txt")));

  fs::last_write_time(in_repo("cpp/src/main.cc"), old + std::chrono::hours(2));
  EXPECT_EQ(replay("cd cpp && rm -rf build gone"), "removed cpp/build\nnothing to remove: cpp/gone");
  EXPECT_FALSE(fs::exists(in_repo("cpp/build")));
}

TEST_F(SetupActionReplay, ExpandsTheShellsPatternsInTheActionsDirectory) {
  repo_.write("export/a.pdmodel", "a");
  repo_.write("export/b.pdiparams", "b");
  fs::create_directories(in_repo("log"));
  const std::string copied = replay("cd . && cp -r export/* log/");
  EXPECT_EQ(copied, "copied to log") << copied;
  EXPECT_EQ(test::slurp(in_repo("log/a.pdmodel").string()), "a");
  EXPECT_EQ(test::slurp(in_repo("log/b.pdiparams").string()), "b");
}

TEST_F(SetupActionReplay, OfflineRefusesADownloadTheCacheLacksAndWgetNcKeepsAFile) {
  const std::string refused = replay("cd . && wget https://example.invalid/lib.tgz", true);
  EXPECT_EQ(refused,
            "error: --offline: https://example.invalid/lib.tgz is not in the download cache " + cache_.path().string());
  EXPECT_FALSE(fs::exists(in_repo("lib.tgz")));
  repo_.write("lib.tgz", "kept");
  EXPECT_EQ(replay("cd . && wget -nc https://example.invalid/lib.tgz", true), "already there: lib.tgz (wget -nc)");
  EXPECT_EQ(test::slurp(in_repo("lib.tgz").string()), "kept");
}

TEST_F(SetupActionReplay, AMissingDirectoryAndAnUnknownWordAreErrors) {
  const std::string missing = replay("cd deploy/cpp && mkdir build");
  EXPECT_NE(missing.find("the directory deploy/cpp does not exist"), std::string::npos) << missing;
  const auto parsed = parse_setup_actions({"cd . && mkdir a", "no action here"});
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().str().find("no action here"), std::string::npos) << parsed.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::setup
