// `tipc-run report DIR` and --bundle, run as a user would on the output of real runs of
// tipc-fake-stage: the same reports as the run's own, an interrupted or killed run still
// reported completely, and bad input.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/junit_xml.h"
#include "support/run_binary.h"
#include "support/tar_file.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::run_tipc;
using test::slurp;

const std::vector<std::string> kReports = {"report.json", "junit.xml", "summary.md", "report.html"};

class ReportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write(test::kPaddleOcrMarker, "");
    repo_.write("eval-ok", "");
  }
  void use_train(const std::string& train) { repo_.write("test_tipc/configs/fake.txt", test::fake_config(train)); }
  test::RunResult run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(repo_.path(), args);
  }
  // Starts tipc-run in the background; returns its pid.
  pid_t start_run() {
    return test::start_tipc(repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"});
  }
  void wait_for(const fs::path& file) {
    for (int i = 0; i < 200 && !fs::exists(file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    ASSERT_TRUE(fs::exists(file)) << file;
  }
  std::map<std::string, std::string> reports() const {
    std::map<std::string, std::string> files;
    for (const auto& name : kReports) files[name] = slurp((output() / name).string());
    return files;
  }
  // Every stage of the plan, with its result, from report.json.
  std::map<std::string, std::string> results() const {
    std::map<std::string, std::string> out;
    const auto json = nlohmann::json::parse(slurp((output() / "report.json").string()));
    for (const auto& stage : json["plans"][0]["stages"]) out[stage["id"]] = stage["result"];
    return out;
  }
  fs::path output() const { return repo_.path() / "test_tipc/output/fake/lite_train_lite_infer"; }

  test::TempDir repo_;
};

TEST_F(ReportCommand, RebuildsTheRunsOwnReportsByteForByte) {
  use_train("train.py --print train-done");
  const auto r = run();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(
      r.out.find("tipc-run: reports in " + output().string() + " (report.json, junit.xml, summary.md, report.html)"),
      std::string::npos)
      << r.out;
  const auto written = reports();
  for (const auto& name : kReports) fs::remove(output() / name);
  const auto rebuilt = run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  EXPECT_NE(
      rebuilt.out.find(": PASS (partial: 2 of 7 stages could not run): 5 passed, 0 failed, 0 timed out, 2 unsupported"),
      std::string::npos)
      << rebuilt.out;
  EXPECT_EQ(reports(), written);
  EXPECT_EQ(run_tipc(repo_.path(), {"report", output().string(), "--strict"}).exit_code, 1);
  EXPECT_EQ(test::read_junit(written.at("junit.xml")).errors, "");
}

TEST_F(ReportCommand, AFailedRunExitsOneAndItsReportsNameTheFailure) {
  use_train("train.py --stderr 'boom <&>' --exit 3");
  ASSERT_EQ(run().exit_code, 1);
  const auto r = run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto junit = test::read_junit(slurp((output() / "junit.xml").string()));
  ASSERT_EQ(junit.errors, "");
  ASSERT_EQ(junit.cases.size(), 7u);
  EXPECT_EQ(junit.cases[0].outcome, "failure");
  EXPECT_EQ(junit.cases[0].message, "exit code 3");
  EXPECT_NE(junit.cases[0].system_out.find("boom <&>"), std::string::npos)
      << junit.cases[0].system_out;  // the log's tail
  EXPECT_NE(slurp((output() / "summary.md").string()).find("| ❌ FAIL | `norm_train/gpus_-1/autocast_null/train` |"),
            std::string::npos);
}

TEST_F(ReportCommand, AnInterruptedRunLeavesValidReportsListingEveryStage) {
  use_train("train.py --sleep 60");
  const pid_t pid = start_run();
  wait_for(output() / "norm_train_gpus_-1_autocast_null.log");
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const auto stages = results();
  EXPECT_EQ(stages.size(), 7u);
  EXPECT_EQ(std::count_if(stages.begin(), stages.end(), [](const auto& kv) { return kv.second == "SKIPPED"; }), 5);
  EXPECT_EQ(std::count_if(stages.begin(), stages.end(), [](const auto& kv) { return kv.second == "UNSUPPORTED"; }), 2);
  const auto junit = test::read_junit(slurp((output() / "junit.xml").string()));
  EXPECT_EQ(junit.errors, "");
  EXPECT_EQ(junit.cases.size(), 7u);
  EXPECT_EQ(nlohmann::json::parse(slurp((output() / "report.json").string()))["verdict"], "INTERRUPTED");
}

TEST_F(ReportCommand, AKilledRunIsReportedFromItsState) {
  use_train("train.py --sleep 1");
  const pid_t pid = start_run();
  wait_for(output() / "norm_train_gpus_-1_autocast_null.log");
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  EXPECT_FALSE(fs::exists(output() / "report.json"));
  const auto r = run_tipc(repo_.path(), {"report", (repo_.path() / "test_tipc/output").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(": INTERRUPTED: 0 passed"), std::string::npos) << r.out;
  // Written into DIR, the directory given.
  const auto json = nlohmann::json::parse(slurp((repo_.path() / "test_tipc/output/report.json").string()));
  EXPECT_EQ(json["finished"], nullptr);
  ASSERT_EQ(json["plans"][0]["stages"].size(), 7u);
  for (const auto& stage : json["plans"][0]["stages"]) {
    if (stage["result"] == "SKIPPED") {
      EXPECT_EQ(stage["reason"], "not started (the run ended before it)");
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // the orphaned train ends by itself
}

// A CI job that runs its configs one by one into one tree: the report of the tree
// describes every config, each with its own results, not only the last one run.
TEST_F(ReportCommand, TheReportOfATreeDescribesEveryConfigRunIntoIt) {
  use_train("train.py --print train-done");
  std::string other = test::fake_config("train.py --exit 3");
  other.replace(other.find("model_name:fake"), 15, "model_name:other");
  repo_.write("test_tipc/configs/other.txt", other);
  ASSERT_EQ(run().exit_code, 0);
  const auto second =
      run_tipc(repo_.path(), {"test_tipc/configs/other.txt", "lite_train_lite_infer", "--gpus", "none"});
  ASSERT_EQ(second.exit_code, 1) << second.out << second.err;

  const fs::path tree = repo_.path() / "test_tipc/output";
  const auto r = run_tipc(repo_.path(), {"report", tree.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto json = nlohmann::json::parse(slurp((tree / "report.json").string()));
  ASSERT_EQ(json["plans"].size(), 2u) << json.dump(1);
  EXPECT_EQ(json["plans"][0]["model"], "fake");
  EXPECT_EQ(json["plans"][0]["stages"][0]["result"], "PASS");
  EXPECT_EQ(json["plans"][1]["model"], "other");
  EXPECT_EQ(json["plans"][1]["stages"][0]["result"], "FAIL");
  const std::string summary = slurp((tree / "summary.md").string());
  EXPECT_NE(summary.find("| `test_tipc/configs/fake.txt` |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| `test_tipc/configs/other.txt` |"), std::string::npos) << summary;
  const auto junit = test::read_junit(slurp((tree / "junit.xml").string()));
  ASSERT_EQ(junit.errors, "");
  EXPECT_EQ(junit.suites.size(), 2u);
}

TEST_F(ReportCommand, TheBundleHoldsReportsLogsConfigAndSettings) {
  use_train("train.py --print train-done");
  repo_.write("test_tipc/tipc-run.yaml", "jobs: 1\n");
  const auto r = run({"--bundle", "acceptance.tar.gz"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto members = test::tar_member_names((repo_.path() / "acceptance.tar.gz").string());
  for (const char* name : {"reports/report.json", "reports/junit.xml", "reports/summary.md", "reports/report.html",
                           "test_tipc/configs/fake.txt", "test_tipc/tipc-run.yaml",
                           "test_tipc/output/fake/lite_train_lite_infer/norm_train_gpus_-1_autocast_null.log"}) {
    EXPECT_EQ(members.count(name), 1u) << name;
  }
  const auto rebuilt = run_tipc(repo_.path(), {"report", output().string(), "--bundle", "again.tar.gz"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_EQ(test::tar_member_names((repo_.path() / "again.tar.gz").string()), members);
}

// tipc-run never calls setlocale: the bundle takes non-ASCII paths in any locale.
TEST_F(ReportCommand, TheBundleOfAModelWithAChineseNameHoldsItsLogs) {
  std::string config = test::fake_config("train.py --print train-done");
  config.replace(config.find("model_name:fake"), 15, "model_name:中文模型");
  repo_.write("test_tipc/configs/fake.txt", config);
  const auto r = run({"--bundle", "验收.tar.gz"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string log = "test_tipc/output/中文模型/lite_train_lite_infer/norm_train_gpus_-1_autocast_null.log";
  EXPECT_EQ(test::tar_member_names((repo_.path() / "验收.tar.gz").string()).count(log), 1u);
  const std::string output = (repo_.path() / "test_tipc/output/中文模型/lite_train_lite_infer").string();
  const auto rebuilt = run_tipc(repo_.path(), {"report", output, "--bundle", "again.tar.gz"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  EXPECT_EQ(test::tar_member_names((repo_.path() / "again.tar.gz").string()).count(log), 1u);
}

TEST_F(ReportCommand, ARunWhoseBundleCannotBeWrittenFailsAndSaysWhy) {
  use_train("train.py --print train-done");
  repo_.write("occupied", "a file where the bundle's directory would be");
  const auto r = run({"--bundle", "occupied/acceptance.tar.gz"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("no bundle occupied/acceptance.tar.gz: "), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(output() / "report.json")) << "the reports are still written";
}

TEST_F(ReportCommand, ADirectoryWithoutRunStateIsExitTwo) {
  auto r = run_tipc(repo_.path(), {"report", repo_.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no .tipc-plan.json at or under this directory"), std::string::npos) << r.err;
  r = run_tipc(repo_.path(), {"report"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_tipc(repo_.path(), {"report", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--bundle"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
