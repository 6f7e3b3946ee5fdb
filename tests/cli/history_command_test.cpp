#include "cli/history_command.h"

#include <sstream>

#include <gtest/gtest.h>

#include "core/error.h"
#include "history/run_history.h"
#include "support/sample_report.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

struct Printed {
  int exit_code;
  std::string out, err;
};

Printed history(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = history_main(args, out, err);
  return {code, out.str(), err.str()};
}

class HistoryCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = history::RunHistory::open(path_);
    ASSERT_TRUE(opened);
    report::RunReport run = test::sample_run_report();
    for (const char* commit : {"aaaaaaaa11", "bbbbbbbb22", "cccccccc33"}) {
      run.environment->repository->commit = commit;
      run.plans[0].stages[0].metrics.benchmark->ips_curves[0].points.back().value += 10;  // 130.5, 140.5, 150.5
      ASSERT_TRUE(opened->record(run, "/repo/out"));
    }
  }
  test::TempDir dir_;
  std::string path_ = (dir_.path() / "h.sqlite").string();
};

TEST_F(HistoryCommand, ListsTheLastRunsOldestFirst) {
  const auto listed = history({"--history", path_, "--runs", "2"});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(listed.out,
            "  run  started (UTC)        commit    branch        verdict      output\n"
            "    2  2023-11-14 22:13:20  bbbbbbbb  main          FAIL         /repo/out\n"
            "    3  2023-11-14 22:13:20  cccccccc  main          FAIL         /repo/out\n");
}

TEST_F(HistoryCommand, FollowsAFigureOverTheRuns) {
  const auto ips = history({"ips", "--history", path_, "--stage", "*/train"});
  EXPECT_EQ(ips.exit_code, 0) << ips.err;
  EXPECT_NE(ips.out.find("    1  2023-11-14 22:13:20  aaaaaaaa         130.5        1  "), std::string::npos)
      << ips.out;
  EXPECT_NE(ips.out.find("    3  2023-11-14 22:13:20  cccccccc         150.5        1  "), std::string::npos)
      << ips.out;
  EXPECT_NE(ips.out.find("test_tipc/configs/alexnet.txt lite_train_lite_infer norm_train/gpus_-1/train\n"),
            std::string::npos)
      << ips.out;
  const auto last = history({"ips", "--history", path_, "--runs", "1"});
  EXPECT_EQ(last.out.find("aaaaaaaa"), std::string::npos) << last.out;
  EXPECT_NE(last.out.find("cccccccc"), std::string::npos) << last.out;
}

TEST_F(HistoryCommand, NothingToShowIsExitTwoWithTheReason) {
  const auto none = history({"ips", "--history", path_, "--stage", "*/eval"});
  EXPECT_EQ(none.exit_code, kExitUsage);
  EXPECT_EQ(none.err, "tipc-run history: error: no run in " + path_ + " has ips for stages matching `*/eval`\n");
  const std::string missing = (dir_.path() / "none.sqlite").string();
  const auto no_file = history({"--history", missing});
  EXPECT_EQ(no_file.exit_code, kExitUsage);
  EXPECT_NE(no_file.err.find(missing + ": no run history here"), std::string::npos) << no_file.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
