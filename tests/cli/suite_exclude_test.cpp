// --exclude GLOB and the settings' exclude: leave configs out of a directory suite (issue 38,
// item 10): matched against the path relative to the directory given, counted, and a glob
// that excludes nothing is a warning naming it.
#include "cli/suite.h"

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_repo_run.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/shipped_chains.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

std::vector<std::string> names(const SelectedConfigs& selected, const std::string& dir) {
  std::vector<std::string> out;
  for (const ConfigFile& file : selected.files) out.push_back(file.path.substr(dir.size() + 1));
  return out;
}

TEST(SuiteExclude, GlobsMatchThePathRelativeToTheDirectoryOrTheFileName) {
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

// The fake repository with three configs: fake.txt, fake2.txt and placeholder.txt, whose
// train is null (a placeholder config that cannot run).
class ExcludeRun : public test::FakeRepoTest {
 protected:
  void SetUp() override {
    FakeRepoTest::SetUp();
    write_second_config();
    write_config_missing_line_17("placeholder.txt");
  }
};

TEST_F(ExcludeRun, AnExcludedConfigIsLeftOutAndCounted) {
  ASSERT_EQ(run_folder().exit_code, kExitUsage);  // the placeholder is an invalid config
  const auto r = run_folder({"--exclude", "placeholder*", "--exclude", "nosuch/*.txt"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("tipc-run: 1 config excluded: placeholder.txt\n"), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.ends_with("tipc-run: 1 config excluded\n")) << "the suite's summary at the end\n" << r.out;
  EXPECT_NE(r.err.find("tipc-run: warning: --exclude nosuch/*.txt: excludes no config\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("placeholder.txt"), std::string::npos) << r.err;
}

// The reports list the excluded configs too (issue 38 item 10: "counted in the summary"):
// report.json's excluded_configs, summary.md's line and report.html's section, and `tipc-run
// report DIR` rebuilds them from the plan files.
TEST_F(ExcludeRun, TheReportsNameTheExcludedConfigs) {
  const auto r = run_folder({"--exclude", "placeholder*"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::filesystem::path reports = repo_.path() / "test_tipc/output";
  const auto check = [&](const std::string& when) {
    const auto json = nlohmann::json::parse(test::slurp((reports / "report.json").string()));
    EXPECT_EQ(json["excluded_configs"], nlohmann::json::array({"placeholder.txt"})) << when;
    EXPECT_NE(test::slurp((reports / "summary.md").string()).find("1 config excluded (--exclude): `placeholder.txt`"),
              std::string::npos)
        << when;
    EXPECT_NE(test::slurp((reports / "report.html").string()).find("<h2>1 config excluded (--exclude)</h2>"),
              std::string::npos)
        << when;
  };
  check("after the run");
  std::filesystem::remove(reports / "report.json");
  std::filesystem::remove(reports / "summary.md");
  std::filesystem::remove(reports / "report.html");
  const auto rebuilt = test::run_tipc(repo_.path().string(), {"report", "test_tipc/output"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  check("after tipc-run report");
}

TEST_F(ExcludeRun, TheSettingsExcludeToo) {
  repo_.write("test_tipc/tipc-run.yaml", "exclude:\n  - placeholder.txt\n  - old_*.txt\n");
  const auto r = run_folder({"--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("tipc-run: 1 config excluded: placeholder.txt\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tipc-run: warning: " + (repo_.path() / "test_tipc/tipc-run.yaml").string() +
                       ":3 old_*.txt: excludes no config\n"),
            std::string::npos)
      << r.err;
  repo_.write("test_tipc/tipc-run.yaml", "exclude: [[1]]\n");
  const auto bad = run_folder({"--dry-run"});
  EXPECT_EQ(bad.exit_code, kExitUsage);
  EXPECT_NE(bad.err.find("exclude"), std::string::npos) << bad.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
