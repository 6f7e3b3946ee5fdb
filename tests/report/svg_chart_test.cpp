#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include "support/text_search.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::occurrences;

TEST(SvgChart, TicksAreRoundNumbers) {
  EXPECT_EQ(nice_ticks(0, 1, 5).values, (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  const Ticks iterations = nice_ticks(1, 72, 5);
  EXPECT_EQ(iterations.step, 10);
  EXPECT_EQ(iterations.values.front(), 10);
  EXPECT_EQ(iterations.values.back(), 70);
  EXPECT_DOUBLE_EQ(nice_ticks(0.00012, 0.00049, 5).step, 1e-4);
  EXPECT_GE(nice_ticks(5, 5, 5).values.size(), 2u);  // an empty range gets a width
}

TEST(SvgChart, LineChartHasAxesTicksLegendAndALinePerSeries) {
  const std::vector<ChartSeries> series = {{"rank 0", {{1, 2.0}, {2, 1.5}, {3, 1.0}}},
                                           {"rank <1>", {{1, 2.1}, {3, 0.9}}}};
  const std::string svg = svg_line_chart(series, "iteration", "loss");
  EXPECT_EQ(svg.rfind("<svg class=\"chart\"", 0), 0u);
  EXPECT_EQ(occurrences(svg, "<polyline class=\"line\""), 2u);
  EXPECT_NE(svg.find("<g class=\"series-1\"><rect class=\"swatch\""), std::string::npos);
  EXPECT_NE(svg.find(">rank &lt;1&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">iteration</text>"), std::string::npos);
  EXPECT_NE(svg.find("rotate(-90)\" text-anchor=\"middle\">loss</text>"), std::string::npos);
  EXPECT_GE(occurrences(svg, "class=\"tick\""), 6u);
  EXPECT_EQ(occurrences(svg, "<svg"), occurrences(svg, "</svg>"));
}

TEST(SvgChart, FlatAndSinglePointSeriesStillDraw) {
  const std::string flat = svg_line_chart({{"lr", {{1, 0.01}, {2, 0.01}}}}, "iteration", "lr");
  EXPECT_EQ(flat.find("nan"), std::string::npos);
  EXPECT_EQ(flat.find("inf"), std::string::npos);
  const std::string single = svg_line_chart({{"acc", {{5, 0.5}}}}, "iteration", "acc");
  EXPECT_NE(single.find("<circle class=\"dot\""), std::string::npos);
  EXPECT_EQ(svg_line_chart({{"empty", {}}}, "iteration", "acc"), "");
}

TEST(SvgChart, HistogramsOverlayBothSidesAsShares) {
  const HistogramPair pair{"fc.weight", {-1, 0, 1}, {10, 30}, {20, 20}};
  const std::string svg = svg_histogram_chart(pair);
  EXPECT_NE(svg.find("<path class=\"area hist-reference\""), std::string::npos);
  EXPECT_NE(svg.find("<path class=\"area hist-candidate\""), std::string::npos);
  EXPECT_NE(svg.find(">share of values (%)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">80</text>"), std::string::npos);  // the axis reaches the highest share, 75%
  EXPECT_EQ(svg_histogram_chart({"bad", {0, 1}, {1, 2}, {1, 2}}), "");
}

TEST(SvgChart, StackedBarsScaleToTheFullWidth) {
  const std::string svg = svg_stacked_bar({{30, "segment seg-pre", "pre"}, {90, "segment seg-infer", "infer"}}, 240);
  EXPECT_NE(svg.find("<rect class=\"segment seg-pre\" x=\"0.0\" width=\"30.0\""), std::string::npos);
  EXPECT_NE(svg.find("<rect class=\"segment seg-infer\" x=\"30.0\" width=\"90.0\""), std::string::npos);
  EXPECT_NE(svg.find("<title>infer</title>"), std::string::npos);
}

TEST(SvgChart, GaugesPlaceTheValueAgainstTheLimitOnALogScale) {
  // 1e-4 .. 1e2 of the limit over 180 px: the limit at 120 px, a tenth of it at 90 px.
  const std::string under = svg_limit_gauge(1e-7, 1e-6, true);
  EXPECT_NE(under.find("<rect class=\"gauge-pass\" width=\"90.0\""), std::string::npos);
  EXPECT_NE(under.find("x1=\"120.0\""), std::string::npos);
  EXPECT_NE(svg_limit_gauge(-5, 1, false).find("<rect class=\"gauge-fail\" width=\"141.0\""), std::string::npos);
  EXPECT_NE(svg_limit_gauge(1e9, 1, false).find("width=\"180.0\""), std::string::npos);
  EXPECT_NE(svg_limit_gauge(0, 1, true).find("<rect class=\"gauge-pass\" width=\"0.0\""), std::string::npos);
  EXPECT_NE(svg_limit_gauge(1, 0, false).find("<rect class=\"gauge-fail\" width=\"180.0\""), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
