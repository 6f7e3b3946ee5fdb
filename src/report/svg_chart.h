#pragma once
// Inline SVG charts for report.html: line charts of train curves, overlaid histograms of
// weight initialisations, stacked latency bars and limit gauges. They carry CSS classes,
// not colours (series-0 .. series-N, hist-reference, hist-candidate, gauge-pass/-fail and
// the classes given to bar segments): the page's one stylesheet colours everything.
// Every label is escaped and every number printed with fixed precision, so the output is
// deterministic.
#include <string>
#include <vector>

#include "report/history_trends.h"
#include "report/run_report.h"

namespace tipc::report {

inline constexpr int kSeriesClasses = 7;  // series-0 .. series-6, reused in turn

struct ChartSeries {
  std::string label;
  std::vector<CurvePoint> points;
};

// Axes with round ticks and grid lines, one line per series, a legend above the plot.
std::string svg_line_chart(const std::vector<ChartSeries>& series, const std::string& x_label,
                           const std::string& y_label);

// Reference and candidate as overlaid step areas, each side as shares of its own total,
// so sides of different sizes compare. A malformed pair gives an empty string.
std::string svg_histogram_chart(const HistogramPair& pair);

struct BarSegment {
  double value = 0;
  std::string css_class;
  std::string label;  // shown as the segment's tooltip
};

// One horizontal bar of stacked segments; `full_scale` spans the whole width.
std::string svg_stacked_bar(const std::vector<BarSegment>& segments, double full_scale);

// Where |value| lies against its limit on a log scale of value / limit, the limit marked.
std::string svg_limit_gauge(double value, double limit, bool passed);

// A figure over recorded runs: one point per run, oldest left, on an axis labelled with the
// runs' short commit hashes (every k-th where they would crowd); each point's run, commit,
// branch, value and comparison in its tooltip (<title>). Regressed points are red (class
// trend-regressed), the baseline's point is ringed under a dashed line (trend-baseline), the
// report's own run is drawn larger (trend-current). Empty for a chart without points.
std::string svg_trend_chart(const TrendChart& chart);

// Round tick values (1, 2 or 5 times a power of ten) from the first multiple of the step
// at or above `low` to the last at or below `high`.
struct Ticks {
  std::vector<double> values;
  double step = 1;
};
Ticks nice_ticks(double low, double high, int target_count);

}  // namespace tipc::report
