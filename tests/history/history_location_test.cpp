// Where the run history is: a run and the subcommands that read or import runs agree.
#include "history/history_location.h"

#include <gtest/gtest.h>

#include "support/fake_repo_run.h"

namespace tipc::history {
namespace {
namespace TIPC_TEST_FILE {

TEST(HistoryLocation, TheOptionThenTheSettingsThenTheDefault) {
  config::ProjectSettings settings;
  EXPECT_EQ(history_path_of(std::nullopt, settings, "/repo"), "/repo/test_tipc/output/.tipc-history.sqlite");
  settings.history = "ci/runs.sqlite";
  EXPECT_EQ(history_path_of(std::nullopt, settings, "/repo"), "/repo/ci/runs.sqlite");
  EXPECT_EQ(history_path_of("/tmp/h.sqlite", settings, "/repo"), "/tmp/h.sqlite");
  settings.history = "";  // history: false
  EXPECT_EQ(history_path_of(std::nullopt, settings, "/repo"), std::nullopt);
  EXPECT_EQ(history_to_read(std::nullopt, {"/repo", settings}), "/repo/test_tipc/output/.tipc-history.sqlite");
}

class SettingsHistory : public test::FakeRepoTest {};

TEST_F(SettingsHistory, CompareHistoryAndImportUseTheHistoryARunRecordsIn) {
  repo_.write("test_tipc/tipc-run.yaml", "history: ci/runs.sqlite\n");
  const std::string runs = (repo_.path() / "ci/runs.sqlite").string();
  const auto ran = run();
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("tipc-run: recorded as run 1 in " + runs + "\n"), std::string::npos) << ran.out;
  const std::string cwd = (repo_.path() / "test_tipc").string();  // anywhere in the repository
  const auto listed = test::run_tipc(cwd, {"history"});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("\n    1  "), std::string::npos) << listed.out;
  const auto compared = test::run_tipc(cwd, {"compare", "1", "output"});
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_NE(compared.out.find("output against run 1: 0 regressed"), std::string::npos) << compared.out;
  const auto imported = test::run_tipc(cwd, {"history", "import", "output"});
  EXPECT_EQ(imported.out, "already recorded output as run 1\n") << imported.err;

  repo_.write("test_tipc/tipc-run.yaml", "history: false\n");
  const auto off = test::run_tipc(cwd, {"history", "import", "output"});
  EXPECT_EQ(off.exit_code, kExitUsage);
  EXPECT_EQ(off.err,
            "tipc-run history import: error: the settings turn the run history off (history: false): name one with "
            "--history\n");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::history
