// --exclude GLOB and the settings' exclude: leave configs out of a directory suite (issue 38,
// item 10): matched against the path relative to the directory given, counted, and a glob
// that excludes nothing is a warning naming it.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_repo_run.h"
#include "support/run_binary.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

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
