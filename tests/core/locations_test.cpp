#include "core/locations.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

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
  EXPECT_EQ(fs::canonical(repository_root((repo.path() / "tools").string())).string(), root)
      << "a directory that holds test_tipc/";
  EXPECT_EQ(fs::canonical(repository_root((repo.path() / "tools/train.py").string())).string(), root);
  EXPECT_EQ(default_settings_path("/repo"), "/repo/test_tipc/tipc-run.yaml");
}

TEST(Locations, OutsideAnyRepositoryTheRootIsTheCurrentDirectory) {
  test::TempDir elsewhere;
  const std::string config = elsewhere.write("alone.txt", "");
  EXPECT_EQ(repository_root(config), fs::current_path().string());
}

// Sets the variables for its lifetime (nullptr: unset) and puts back what was there.
class SavedEnvironment {
 public:
  explicit SavedEnvironment(std::vector<std::pair<const char*, const char*>> values) {
    for (const auto& [name, value] : values) {
      const char* was = std::getenv(name);
      saved_.push_back({name, was ? std::optional<std::string>(was) : std::nullopt});
      if (value)
        ::setenv(name, value, 1);
      else
        ::unsetenv(name);
    }
  }
  ~SavedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value)
        ::setenv(name, value->c_str(), 1);
      else
        ::unsetenv(name);
    }
  }

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(Locations, EveryCacheFollowsOneRuleItsVariableThenXdgThenHomeElseNone) {
  {
    const SavedEnvironment env(
        {{"TIPC_TRACE_CACHE", "/t"}, {"TIPC_DOWNLOAD_CACHE", nullptr}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}});
    EXPECT_EQ(trace_cache_directory(), "/t");
    EXPECT_EQ(download_cache_directory(), "/x/tipc-run/downloads");
  }
  {
    const SavedEnvironment env({{"TIPC_TRACE_CACHE", ""}, {"TIPC_DOWNLOAD_CACHE", ""}, {"XDG_CACHE_HOME", "/x"}});
    EXPECT_EQ(trace_cache_directory(), "") << "set and empty: off";
    EXPECT_EQ(download_cache_directory(), "");
  }
  {
    const SavedEnvironment env(
        {{"TIPC_TRACE_CACHE", nullptr}, {"TIPC_DOWNLOAD_CACHE", nullptr}, {"XDG_CACHE_HOME", nullptr}, {"HOME", "/h"}});
    EXPECT_EQ(trace_cache_directory(), "/h/.cache/tipc-run/traces");
    EXPECT_EQ(download_cache_directory(), "/h/.cache/tipc-run/downloads");
  }
  {
    const SavedEnvironment env(
        {{"TIPC_TRACE_CACHE", nullptr}, {"TIPC_DOWNLOAD_CACHE", nullptr}, {"XDG_CACHE_HOME", ""}, {"HOME", nullptr}});
    EXPECT_EQ(trace_cache_directory(), "") << "no HOME: nothing kept between runs";
    EXPECT_EQ(download_cache_directory(), "");
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
