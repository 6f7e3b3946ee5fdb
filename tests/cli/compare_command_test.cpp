#include "cli/compare_command.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "history/run_history.h"
#include "report/report_loader.h"
#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

using test::TempDir;

// A scratch repository whose eval prints `top1: VALUE`, run once for real.
std::string run_repo(const TempDir& repo, const std::string& top1) {
  repo.write(test::kPaddleOcrMarker, "");
  std::string config = test::fake_config();
  const std::string eval = "eval:eval.py --record rec.txt --fail-if-missing eval-ok";
  config.replace(config.find(eval), eval.size(), "eval:eval.py --print top1:" + top1);
  repo.write("test_tipc/configs/fake.txt", config);
  const auto run =
      test::run_tipc(repo.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return (repo.path() / "test_tipc/output").string();
}

struct Compared {
  int exit_code;
  std::string out, err;
};

Compared compare(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = compare_main(args, out, err);
  return {code, out.str(), err.str()};
}

class CompareCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new TempDir;
    worse_ = new TempDir;
    base_dir_ = run_repo(*base_, "0.90");
    worse_dir_ = run_repo(*worse_, "0.80");
  }
  static void TearDownTestSuite() {
    delete base_;
    delete worse_;
  }
  static inline TempDir *base_ = nullptr, *worse_ = nullptr;
  static inline std::string base_dir_, worse_dir_;
};

TEST_F(CompareCommand, ARunAgainstItselfIsUnchangedAndExitsZero) {
  const auto same = compare({base_dir_, base_dir_, "--history", base_dir_ + "/none.sqlite"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("tipc-run compare: OK: "), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("0 regressed (0 failing), 0 improved, 1 unchanged, 0 new, 0 gone"), std::string::npos)
      << same.out;
}

TEST_F(CompareCommand, AnAccuracyDropIsARegressionInEveryFormat) {
  TempDir out;
  const std::string markdown = (out.path() / "c.md").string(), json = (out.path() / "c.json").string(),
                    junit = (out.path() / "c.xml").string();
  const auto worse = compare({base_dir_, worse_dir_, "--markdown", markdown, "--json", json, "--junit", junit});
  EXPECT_EQ(worse.exit_code, kExitRegressed) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("REGRESSED  norm_train/gpus_-1/autocast_null/eval  eval:top1  0.9 -> 0.8  -11.11%"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(
      test::slurp(markdown).find(
          "| REGRESSED | `test_tipc/configs/fake.txt lite_train_lite_infer norm_train/gpus_-1/autocast_null/eval` | "
          "eval:top1 | 0.9 | 0.8 | -11.11% |"),
      std::string::npos)
      << test::slurp(markdown);
  const auto report = nlohmann::json::parse(test::slurp(json));
  EXPECT_EQ(report["verdict"], "REGRESSED");
  EXPECT_EQ(report["counts"]["REGRESSED"], 1);
  EXPECT_NE(test::slurp(junit).find("<failure message=\"REGRESSED: 0.9 -&gt; 0.8 -11.11%;"), std::string::npos)
      << test::slurp(junit);
  EXPECT_EQ(compare({worse_dir_, base_dir_}).exit_code, 0);  // the other way it improved
}

TEST_F(CompareCommand, TheSettingsGatesDecideSeverityAndWhatIsIgnored) {
  TempDir dir;
  const std::string warn = dir.write("warn.yaml", "gates:\n  - metric: \"eval:*\"\n    severity: warn\n");
  const auto warned = compare({base_dir_, worse_dir_, "--settings", warn});
  EXPECT_EQ(warned.exit_code, 0) << warned.out << warned.err;
  EXPECT_NE(warned.out.find("REGRESSED (warn)  norm_train/gpus_-1/autocast_null/eval  eval:top1"), std::string::npos)
      << warned.out;
  EXPECT_NE(warned.out.find("; rule " + warn + ":2"), std::string::npos) << warned.out;
  const std::string loose = dir.write("loose.yaml", "gates:\n  - metric: \"eval:top1\"\n    threshold: 20%\n");
  EXPECT_EQ(compare({base_dir_, worse_dir_, "--settings", loose}).exit_code, 0);
  const std::string bad = dir.write("bad.yaml", "gates:\n  - metric: ips\n    threshold: lots\n");
  const auto refused = compare({base_dir_, worse_dir_, "--settings", bad});
  EXPECT_EQ(refused.exit_code, kExitUsage);
  EXPECT_NE(refused.err.find(bad + ":3: key 'threshold'"), std::string::npos) << refused.err;
}

TEST_F(CompareCommand, RunsAreFoundInTheHistoryByIdCommitOrBranch) {
  TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  auto history = history::RunHistory::open(path);
  ASSERT_TRUE(history);
  auto base = report::load_run_report(base_dir_);
  ASSERT_TRUE(base);
  base->environment = report::Environment{};
  base->environment->repository = report::RepositoryState{"abcdef0123456789abcdef0123456789abcdef01", "main", false};
  ASSERT_TRUE(history->record(*base, base_dir_));
  const auto by_id = compare({"1", worse_dir_, "--history", path});
  EXPECT_EQ(by_id.exit_code, kExitRegressed) << by_id.out << by_id.err;
  EXPECT_NE(by_id.out.find(" against run 1: "), std::string::npos) << by_id.out;
  const auto by_branch = compare({"main", worse_dir_, "--history", path});
  EXPECT_NE(by_branch.out.find(" against main (run 1): "), std::string::npos) << by_branch.out;
  EXPECT_EQ(compare({"abcdef01", worse_dir_, "--history", path}).exit_code, kExitRegressed);
}

// --runs N pools a branch's last N runs: each figure is tested over the runs' medians.
TEST_F(CompareCommand, RunsOfABranchArePooled) {
  TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  auto history = history::RunHistory::open(path);
  ASSERT_TRUE(history);
  const auto record = [&](const std::string& top1, const std::string& branch) {
    auto report = report::load_run_report(base_dir_);
    ASSERT_TRUE(report);
    report->environment = report::Environment{};
    report->environment->repository =
        report::RepositoryState{"abcdef0123456789abcdef0123456789abcdef01", branch, false};
    report->plans[0].stages[1].metrics.final_values["top1"] = std::stod(top1);  // the eval stage
    ASSERT_TRUE(history->record(*report, base_dir_));
  };
  for (const char* top1 : {"0.90", "0.91", "0.89", "0.92"}) record(top1, "main");
  for (const char* top1 : {"0.80", "0.81", "0.79", "0.78"}) record(top1, "pr");
  const auto pooled = compare({"main", "pr", "--runs", "4", "--history", path});
  EXPECT_EQ(pooled.exit_code, kExitRegressed) << pooled.out << pooled.err;
  EXPECT_NE(pooled.out.find("REGRESSED: pr (4 runs, 5..8) against main (4 runs, 1..4)"), std::string::npos)
      << pooled.out;
  EXPECT_NE(pooled.out.find("p=0.0286"), std::string::npos)
      << pooled.out;  // 4 + 4 runs apart: the exact test's least p
  const auto one = compare({"main", "pr", "--history", path});
  EXPECT_EQ(one.out.find("p="), std::string::npos) << one.out;  // one value a side: the thresholds alone
  const auto refused = compare({base_dir_, "pr", "--runs", "4", "--history", path});
  EXPECT_EQ(refused.exit_code, kExitUsage);
  EXPECT_NE(refused.err.find("is one run: --runs 4 takes the last runs of a commit or branch"), std::string::npos)
      << refused.err;
}

TEST_F(CompareCommand, ABundleIsARunToo) {
  TempDir dir;
  const std::string bundle = (dir.path() / "base.tar.gz").string();
  const auto bundled = test::run_tipc(base_->path().string(), {"report", base_dir_, "--bundle", bundle});
  ASSERT_EQ(bundled.exit_code, 0) << bundled.out << bundled.err;
  const auto worse = compare({bundle, worse_dir_});
  EXPECT_EQ(worse.exit_code, kExitRegressed) << worse.out << worse.err;
  EXPECT_NE(worse.out.find(" against " + bundle + ": 1 regressed (1 failing)"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("eval:top1  0.9 -> 0.8  -11.11%"), std::string::npos) << worse.out;
  const auto same = compare({bundle, base_dir_});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("0 regressed (0 failing), 0 improved, 1 unchanged, 0 new, 0 gone"), std::string::npos)
      << same.out;
  const std::string corrupt = dir.write("corrupt.tar.gz", "not gzip");
  const auto refused = compare({corrupt, base_dir_});
  EXPECT_EQ(refused.exit_code, kExitUsage);
  EXPECT_TRUE(
      refused.err.starts_with("tipc-run compare: error: " + corrupt + ": not a readable bundle (a gzipped tar): "))
      << refused.err;
}

// An output directory is read from its report.json while that is newer than every journal
// under it, and from its state (plan files, journals, logs) once a journal is newer.
TEST_F(CompareCommand, ADirectorysReportIsReadWhileItIsCurrent) {
  namespace fs = std::filesystem;
  TempDir copy;
  fs::copy(base_dir_, copy.path(), fs::copy_options::recursive);
  fs::path reported, journal, eval_log;
  for (const auto& entry : fs::recursive_directory_iterator(copy.path())) {
    if (entry.path().filename() == "report.json") reported = entry.path().parent_path();
    if (entry.path().filename() == ".tipc-journal.jsonl") journal = entry.path();
    if (entry.path().extension() == ".log" && test::slurp(entry.path()).find("top1:0.90") != std::string::npos) {
      eval_log = entry.path();
    }
  }
  ASSERT_FALSE(reported.empty() || journal.empty() || eval_log.empty());
  std::string log = test::slurp(eval_log);
  log.replace(log.find("top1:0.90"), 9, "top1:0.50");  // what only a reload of the state sees
  std::ofstream(eval_log, std::ios::trunc) << log;
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(reported / "report.json", now);
  fs::last_write_time(journal, now - std::chrono::seconds(10));
  const auto current = compare({base_dir_, reported.string()});
  EXPECT_EQ(current.exit_code, 0) << current.out << current.err;
  fs::last_write_time(journal, now + std::chrono::seconds(10));  // a later run was cut short
  const auto reloaded = compare({base_dir_, reported.string()});
  EXPECT_EQ(reloaded.exit_code, kExitRegressed) << reloaded.out << reloaded.err;
  EXPECT_NE(reloaded.out.find("eval:top1  0.9 -> 0.5"), std::string::npos) << reloaded.out;
}

TEST_F(CompareCommand, WhatIsNoRunIsExitTwoWithTheReason) {
  TempDir dir;
  const std::string path = (dir.path() / "h.sqlite").string();
  const auto no_history = compare({"main", base_dir_, "--history", path});
  EXPECT_EQ(no_history.exit_code, kExitUsage);
  EXPECT_EQ(no_history.err,
            "tipc-run compare: error: `main` is no directory or bundle, and the run history cannot be read: " + path +
                ": no run history here (no run has been recorded in it)\n");
  EXPECT_FALSE(std::filesystem::exists(path));  // reading never makes one
  ASSERT_TRUE(history::RunHistory::open(path));
  const auto missing = compare({"nosuchbranch", base_dir_, "--history", path});
  EXPECT_EQ(missing.exit_code, kExitUsage);
  EXPECT_EQ(
      missing.err,
      "tipc-run compare: error: `nosuchbranch` is no directory, bundle, run id, or commit or branch with a run in " +
          path + "\n");
  const auto no_run = compare({"7", base_dir_, "--history", path});
  EXPECT_EQ(no_run.exit_code, kExitUsage);
  EXPECT_EQ(no_run.err, "tipc-run compare: error: " + path + ": no run 7 in the run history\n");
  const auto empty_dir = compare({dir.path().string(), base_dir_, "--history", path});
  EXPECT_EQ(empty_dir.exit_code, kExitUsage);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
