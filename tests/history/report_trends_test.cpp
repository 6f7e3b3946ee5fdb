// report.html's history section and `tipc-run history --html`, from runs recorded for real.
#include "history/report_trends.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/fake_repo_run.h"
#include "support/tar_file.h"
#include "support/text_search.h"

namespace tipc::history {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

class ReportTrends : public test::FakeRepoTest {
 protected:
  // The fake chain with an eval that prints `top1: VALUE`, run once.
  test::RunResult run_with_top1(const std::string& value, std::vector<std::string> extra = {}) {
    std::string config = test::fake_config();
    const std::string eval = "eval:eval.py --record rec.txt --fail-if-missing eval-ok";
    config.replace(config.find(eval), eval.size(), "eval:eval.py --print top1:" + value);
    repo_.write("test_tipc/configs/fake.txt", config);
    return run(std::move(extra));
  }
  std::string history() const { return (repo_.path() / "test_tipc/output/.tipc-history.sqlite").string(); }
  std::string report_html() const { return test::slurp((output() / "report.html").string()); }
};

TEST_F(ReportTrends, ARecordedRunsReportShowsItsFiguresOverTheRunsWithTheRegressionHighlighted) {
  ASSERT_EQ(run_with_top1("0.90").exit_code, 0);
  const auto second = run_with_top1("0.80", {"--baseline", "1"});
  ASSERT_EQ(second.exit_code, kExitRegressed) << second.out << second.err;
  const std::string html = report_html();
  EXPECT_EQ(test::occurrences(html, "<section class=\"plan\" id=\"history\">"), 1u);
  EXPECT_NE(html.find("<figcaption><code>eval:top1</code> <span class=\"muted\">norm_train/gpus_-1/autocast_null/eval"),
            std::string::npos)
      << html;
  EXPECT_EQ(test::occurrences(html, "<circle class=\"point trend-regressed trend-current\""), 1u);
  EXPECT_EQ(test::occurrences(html, "class=\"ring trend-baseline\""), 1u);
  EXPECT_NE(html.find("REGRESSED: 0.9 -&gt; 0.8, -11.11% against the baseline, run 1</td>"), std::string::npos) << html;

  // `tipc-run report DIR` finds the run in the history by its start and adds the same
  // section, compared with the run before it (the report knows no --baseline).
  const auto rebuilt = test::run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(rebuilt.err, "");
  const std::string again = report_html();
  EXPECT_NE(again.find("<circle class=\"point trend-regressed trend-current\""), std::string::npos);
  EXPECT_NE(again.find("against run 1</td>"), std::string::npos);
  EXPECT_EQ(again.find("class=\"ring trend-baseline\""), std::string::npos);
  test::run_tipc(repo_.path(), {"report", output().string(), "--no-history"});
  EXPECT_EQ(report_html().find("id=\"history\""), std::string::npos);
}

// The bundle is written with the reports, before the run is recorded; it is written again
// with the history section, so that a reviewer who opens only the bundle sees the trends.
TEST_F(ReportTrends, TheBundlesReportHasTheHistorySectionToo) {
  ASSERT_EQ(run_with_top1("0.90").exit_code, 0);
  const std::string bundle = (repo_.path() / "ci.tar.gz").string();
  const auto second = run_with_top1("0.80", {"--baseline", "1", "--bundle", bundle});
  ASSERT_EQ(second.exit_code, kExitRegressed) << second.out << second.err;
  const auto members = test::read_tar_gz(bundle);
  ASSERT_TRUE(members.contains("reports/report.html")) << test::tar_member_names(bundle).size();
  const std::string& html = members.at("reports/report.html");
  EXPECT_EQ(test::occurrences(html, "<section class=\"plan\" id=\"history\">"), 1u);
  EXPECT_EQ(test::occurrences(html, "<circle class=\"point trend-regressed trend-current\""), 1u);
  EXPECT_TRUE(fs::exists(bundle)) << "written in place";
  for (const auto& entry : fs::directory_iterator(repo_.path())) {
    EXPECT_EQ(entry.path().filename().string().find("ci.tar.gz.tmp"), std::string::npos) << "no temporary left";
  }
}

TEST_F(ReportTrends, HistoryHtmlWritesOnePageOfEveryConfigAndStage) {
  ASSERT_EQ(run_with_top1("0.90").exit_code, 0);
  ASSERT_EQ(run_with_top1("0.80").exit_code, 0);
  const fs::path dir = repo_.path() / "trends";
  const auto page = test::run_tipc(repo_.path(), {"history", "--html", dir.string()});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_TRUE(page.out.starts_with("tipc-run history: " + (dir / "index.html").string() + " (")) << page.out;
  const std::string html = test::slurp((dir / "index.html").string());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(html.find("<h3>test_tipc/configs/fake.txt <span class=\"muted\">&#183; lite_train_lite_infer</span></h3>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<figcaption><code>eval:top1</code>"), std::string::npos);
  EXPECT_NE(html.find("<h3>1 point regressed</h3>"), std::string::npos);
  EXPECT_EQ(test::run_tipc(repo_.path(), {"history", "--settings", "x.yaml"}).exit_code, kExitUsage);  // needs --html
}

TEST_F(ReportTrends, ADamagedHistoryLeavesReportHtmlWithoutTheSectionAndIsOnlyAWarning) {
  repo_.write("test_tipc/output/.tipc-history.sqlite", std::string(8192, 'x'));
  const auto damaged = run_with_top1("0.90");
  EXPECT_EQ(damaged.exit_code, 0) << damaged.out << damaged.err;
  EXPECT_NE(report_html().find("<h1>"), std::string::npos);
  EXPECT_EQ(report_html().find("id=\"history\""), std::string::npos);
  const auto rebuilt = test::run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_NE(rebuilt.err.find("tipc-run: warning: report.html has no history section: " + history() + ": "),
            std::string::npos)
      << rebuilt.err;
  EXPECT_NE(report_html().find("<h1>"), std::string::npos);
  EXPECT_EQ(report_html().find("id=\"history\""), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::history
