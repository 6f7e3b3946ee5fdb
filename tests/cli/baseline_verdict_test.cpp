// One verdict with --baseline (issue 38, item 8): a failing regression against the baseline
// fails the run in every report and in the run history, exactly as its exit code (6) says,
// and `tipc-run report DIR` says it again; a later run without --baseline does not inherit it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "history/run_history.h"
#include "support/fake_repo_run.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

using test::slurp;

class BaselineVerdict : public test::FakeRepoTest {
 protected:
  std::string report(const char* name) const { return slurp((output() / name).string()); }
  nlohmann::json report_json() const { return nlohmann::json::parse(report("report.json")); }
  std::string history_verdict(std::int64_t run) const {
    auto history = history::RunHistory::open((repo_.path() / "test_tipc/output/.tipc-history.sqlite").string(), false);
    if (!history) return history.error().str();
    const auto runs = history->runs(10);
    if (!runs) return runs.error().str();
    for (const auto& recorded : *runs) {
      if (recorded.id == run) return recorded.verdict;
    }
    return "no run " + std::to_string(run);
  }
};

TEST_F(BaselineVerdict, AFailingRegressionFailsEveryReportAndTheHistory) {
  eval_prints_top1("0.90");
  ASSERT_EQ(run().exit_code, 0);
  eval_prints_top1("0.80");
  const auto worse = run({"--baseline", "1"});
  ASSERT_EQ(worse.exit_code, kExitRegressed) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("tipc-run: FAIL (1 regression against run 1)\n"), std::string::npos) << worse.out;

  const auto json = report_json();
  EXPECT_EQ(json["verdict"], "FAIL");
  EXPECT_EQ(json["exit_code"], kExitRegressed);
  EXPECT_EQ(json["headline"], "FAIL (1 regression against run 1)");
  ASSERT_EQ(json["baseline"]["regressions"].size(), 1u) << json["baseline"].dump();
  EXPECT_EQ(json["baseline"]["baseline"], "run 1");
  EXPECT_EQ(json["baseline"]["regressions"][0]["stage"], "norm_train/gpus_-1/autocast_null/eval");
  EXPECT_EQ(json["baseline"]["regressions"][0]["figure"], "eval:top1");

  const std::string summary = report("summary.md");
  EXPECT_NE(summary.find("## ❌ tipc-run: FAIL (1 regression against run 1)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("### Regressed against run 1 (--baseline)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| eval:top1 | 0.9 | 0.8 | -11.11% |"), std::string::npos) << summary;

  const std::string junit = report("junit.xml");
  EXPECT_NE(junit.find("<testcase classname=\"test_tipc/configs/fake.lite_train_lite_infer\" "
                       "name=\"norm_train/gpus_-1/autocast_null/eval eval:top1\""),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("type=\"REGRESSED\""), std::string::npos) << junit;

  const std::string html = report("report.html");
  EXPECT_NE(html.find("<header class=\"banner fail\">"), std::string::npos);
  EXPECT_NE(html.find("1 regression against run 1 (--baseline)</h2>"), std::string::npos);

  EXPECT_EQ(history_verdict(1), "PARTIAL");  // its GPU inferences cannot run here
  EXPECT_EQ(history_verdict(2), "FAIL");
  const auto listed = test::run_tipc(repo_.path(), {"history"});
  EXPECT_NE(listed.out.find("FAIL"), std::string::npos) << listed.out;

  // The reports of the output directory, rebuilt: the same verdict, the same exit code.
  const auto rebuilt = test::run_tipc(repo_.path(), {"report", output().string(), "--no-history"});
  EXPECT_EQ(rebuilt.exit_code, kExitRegressed) << rebuilt.out << rebuilt.err;
  EXPECT_EQ(report_json()["verdict"], "FAIL");
}

TEST_F(BaselineVerdict, ARunWithoutABaselineOrWithoutARegressionDoesNotFail) {
  eval_prints_top1("0.90");
  ASSERT_EQ(run().exit_code, 0);
  eval_prints_top1("0.80");
  ASSERT_EQ(run({"--baseline", "1"}).exit_code, kExitRegressed);
  const auto plain = run();  // the comparison was run 2's, not this one's
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_EQ(report_json()["verdict"], "PARTIAL");
  EXPECT_TRUE(report_json()["baseline"].is_null());
  EXPECT_EQ(test::run_tipc(repo_.path(), {"report", output().string(), "--no-history"}).exit_code, 0);
  const auto same = run({"--baseline", "3"});  // the same figures: unchanged
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_EQ(report_json()["verdict"], "PARTIAL");
  EXPECT_EQ(report_json()["baseline"]["baseline"], "run 3");
  EXPECT_TRUE(report_json()["baseline"]["regressions"].empty());
  EXPECT_EQ(history_verdict(4), "PARTIAL");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
