#include "report/trend_html.h"

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "report/svg_chart.h"
#include "support/sample_report.h"
#include "support/sample_trends.h"
#include "support/text_search.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::occurrences;
using test::sample_trends;
using test::trend_point;

TEST(TrendHtml, TheSectionHasAChartPerFigureGroupedByConfigAndMode) {
  const std::string html = trend_section(sample_trends());
  EXPECT_TRUE(html.starts_with("<section class=\"plan\" id=\"history\">\n<h2>History</h2>\n")) << html;
  EXPECT_NE(html.find("2 charts from the run history <code>/repo/test_tipc/output/.tipc-history.sqlite</code>"),
            std::string::npos);
  EXPECT_EQ(occurrences(html, "<figure>"), 2u);
  EXPECT_NE(html.find("<figcaption><code>ips</code> <span class=\"muted\">norm_train/gpus_1/train &#183; higher is "
                      "better</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<figcaption><code>eval:top1</code>"), std::string::npos);
  EXPECT_NE(html.find("<h3>test_tipc/configs/alexnet.txt <span class=\"muted\">&#183; benchmark_train</span></h3>"),
            std::string::npos);
  EXPECT_EQ(occurrences(html, "<div class=\"charts\">"), 2u);
  EXPECT_EQ(trend_section({"h.sqlite", {}, 0}), "");
  HistoryTrends cut = sample_trends();
  cut.charts_left_out = 7;
  EXPECT_NE(
      trend_section(cut).find("2 charts (7 more left out; <code>tipc-run history --html DIR</code> draws them all)"),
      std::string::npos);
}

TEST(TrendHtml, TheBaselineIsMarkedAndARegressedPointHighlightedAndListed) {
  const std::string html = trend_section(sample_trends());
  EXPECT_EQ(occurrences(html, "class=\"ring trend-baseline\""), 1u);
  EXPECT_EQ(occurrences(html, "class=\"baseline-mark\""), 1u);
  EXPECT_EQ(occurrences(html, "<circle class=\"point trend-regressed\""), 1u);
  EXPECT_EQ(occurrences(html, "<circle class=\"point trend-current\""), 1u);
  EXPECT_NE(html.find("<h3>1 point regressed</h3>"), std::string::npos);
  EXPECT_NE(html.find("REGRESSED: 121 samples/s -&gt; 96 samples/s, -20.66% against run 2</td>"), std::string::npos);
  // The tooltip: run, commit, branch, value and the comparison.
  EXPECT_NE(html.find("<title>run 3, commit abcdef301234 on main: ips 96 samples/s; REGRESSED: "), std::string::npos)
      << html;
  EXPECT_NE(html.find("<title>run 2, commit abcdef201234 on main: ips 121 samples/s (the baseline); UNCHANGED"),
            std::string::npos);
}

TEST(TrendHtml, TextIsEscaped) {
  const std::string html = trend_section(sample_trends());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("eval&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("test_tipc/configs/&lt;resnet&gt;.txt"), std::string::npos);
  EXPECT_NE(html.find("on &lt;b&gt;feature &amp; &quot;x&quot;&lt;/b&gt;: ips 97 samples/s (this run)"),
            std::string::npos);
}

TEST(TrendHtml, ReportHtmlHasTheSectionOnlyWithTrends) {
  RunReport report = test::sample_run_report();
  const std::string without = render_html_report(report);
  EXPECT_EQ(without.find("id=\"history\""), std::string::npos);
  report.trends = sample_trends();
  const std::string with = render_html_report(report);
  EXPECT_EQ(occurrences(with, "<section class=\"plan\" id=\"history\">"), 1u);
  EXPECT_LT(with.find("id=\"plan-1\""), with.find("id=\"history\""));  // after the configs
  EXPECT_EQ(with.substr(0, with.find("<main>")), without.substr(0, without.find("<main>")));
}

TEST(TrendHtml, ThePageIsSelfContained) {
  const std::string page = render_trend_page(sample_trends());
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>")) << page.substr(0, 40);
  EXPECT_EQ(occurrences(page, "</html>"), 1u);
  EXPECT_NE(page.find("content=\"default-src 'none'"), std::string::npos);
  for (const std::string fetching : {"http://", "https://", "src=", "<link", "<script", "url("}) {
    EXPECT_EQ(page.find(fetching), std::string::npos) << fetching;
  }
  EXPECT_NE(page.find("id=\"history\""), std::string::npos);
  EXPECT_NE(render_trend_page({"h", {}, 0}).find("No recorded run has a gated figure"), std::string::npos);
}

TEST(TrendChart, CommitsLabelTheAxisTheNewestAlwaysAndNoneCrowded) {
  TrendChart chart{"c", "m", "s", "ips", "samples/s", true, {}};
  for (int run = 1; run <= 20; ++run) chart.points.push_back(trend_point(run, 100 + run));
  const std::string svg = svg_trend_chart(chart);
  EXPECT_EQ(occurrences(svg, "<circle class=\"point\""), 20u);
  EXPECT_EQ(occurrences(svg, "<polyline"), 1u);
  EXPECT_NE(svg.find(">abcdef2</text>"), std::string::npos);  // run 20's short hash: "abcdef2" + "0..."
  EXPECT_LE(occurrences(svg, ">abcdef"), 7u);                 // 440 px hold 7 labels of 56 px
  EXPECT_GE(occurrences(svg, ">abcdef"), 5u);
  chart.points.resize(1);
  chart.points[0].commit.clear();
  const std::string one = svg_trend_chart(chart);
  EXPECT_NE(one.find(">run 1</text>"), std::string::npos);  // no commit: the run id
  EXPECT_EQ(one.find("<polyline"), std::string::npos);
  chart.points.clear();
  EXPECT_EQ(svg_trend_chart(chart), "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
