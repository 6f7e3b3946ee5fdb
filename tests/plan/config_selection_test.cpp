// plan/config_selection: --exclude GLOB and the settings' exclude: leave configs out of a
// directory suite (issue 38, item 10), matched against the path relative to the directory
// given or the file name; an excluded file is never read. (tests/cli/suite_exclude_test.cpp
// runs the same through tipc-run.)
#include "plan/config_selection.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_config.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

std::vector<std::string> names(const SelectedConfigs& selected, const std::string& dir) {
  std::vector<std::string> out;
  for (const ConfigFile& file : selected.files) out.push_back(file.path.substr(dir.size() + 1));
  return out;
}

TEST(ConfigSelection, GlobsMatchThePathRelativeToTheDirectoryOrTheFileName) {
  test::TempDir dir;
  for (const char* name : {"a/model.txt", "a/placeholder_1.txt", "b/placeholder_2.txt", "b/model.txt"}) {
    dir.write(name, test::fake_config());
  }
  dir.write("b/placeholder_3.txt", "\x01\x02 not a config");  // excluded: never read
  const std::string root = dir.path().string();

  const auto by_name = select_config_files(root, {{"placeholder_*.txt", "--exclude"}}, &test::shipped_chains());
  ASSERT_TRUE(by_name) << by_name.error().str();
  EXPECT_EQ(names(*by_name, root), (std::vector<std::string>{"a/model.txt", "b/model.txt"}));
  EXPECT_EQ(by_name->excluded,
            (std::vector<std::string>{"a/placeholder_1.txt", "b/placeholder_2.txt", "b/placeholder_3.txt"}));
  EXPECT_TRUE(by_name->unused.empty());

  const auto by_path = select_config_files(root, {{"a/*", "--exclude"}, {"c/*", "--exclude"}}, &test::shipped_chains());
  ASSERT_TRUE(by_path) << by_path.error().str();
  // b/placeholder_3.txt is read now: text, but no train_params config, so no config at all.
  EXPECT_EQ(names(*by_path, root), (std::vector<std::string>{"b/model.txt", "b/placeholder_2.txt"}));
  EXPECT_EQ(by_path->excluded, (std::vector<std::string>{"a/model.txt", "a/placeholder_1.txt"}));
  ASSERT_EQ(by_path->unused.size(), 1u);
  EXPECT_EQ(by_path->unused[0].glob, "c/*");

  const auto everything = select_config_files(root, {{"*", "--exclude"}}, &test::shipped_chains());
  ASSERT_FALSE(everything);
  EXPECT_NE(everything.error().str().find("every config of this directory is excluded (5 files)"), std::string::npos)
      << everything.error().str();
}

TEST(ConfigSelection, TheExcludeSettingsFollowTheCommandLinesGlobsNamingTheirLine) {
  config::ProjectSettings settings;
  settings.path = "test_tipc/tipc-run.yaml";
  settings.exclude = {{"old/*", 4}};
  const auto exclusions = config_exclusions({"placeholder_*.txt"}, settings);
  ASSERT_EQ(exclusions.size(), 2u);
  EXPECT_EQ(exclusions[0].glob, "placeholder_*.txt");
  EXPECT_EQ(exclusions[0].source, "--exclude");
  EXPECT_EQ(exclusions[1].glob, "old/*");
  EXPECT_EQ(exclusions[1].source, "test_tipc/tipc-run.yaml:4");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
