#include "core/locations.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

TEST(Locations, TheRootIsAboveTestTipcFromAConfigOrADirectory) {
  test::TempDir repo;
  const std::string config = repo.write("test_tipc/configs/model/train.txt", "");
  repo.write("tools/train.py", "");
  const std::string root = fs::canonical(repo.path()).string();
  EXPECT_EQ(fs::canonical(repository_root(config)).string(), root);
  EXPECT_EQ(fs::canonical(repository_root((repo.path() / "tools").string())).string(), root) << "a directory that holds test_tipc/";
  EXPECT_EQ(fs::canonical(repository_root((repo.path() / "tools/train.py").string())).string(), root);
  EXPECT_EQ(default_settings_path("/repo"), "/repo/test_tipc/tipc-run.yaml");
}

TEST(Locations, OutsideAnyRepositoryTheRootIsTheCurrentDirectory) {
  test::TempDir elsewhere;
  const std::string config = elsewhere.write("alone.txt", "");
  EXPECT_EQ(repository_root(config), fs::current_path().string());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
