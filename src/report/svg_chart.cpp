#include "report/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <tuple>

#include "report/html_text.h"
#include "report/report_text.h"

namespace tipc::report {
namespace {

constexpr double kChartWidth = 520;
constexpr double kPlotHeight = 210;
constexpr double kMarginLeft = 64, kMarginRight = 16, kMarginTop = 8, kMarginBottom = 44;
constexpr double kLegendRowHeight = 18;
constexpr double kCharWidth = 6.6;  // of the 11px legend text, to lay out legend rows
constexpr int kTargetTicks = 5;

// A linear map from data values to pixels.
struct Scale {
  double low = 0, high = 1;  // data
  double from = 0, to = 1;   // pixels
  double operator()(double value) const { return from + (value - low) / (high - low) * (to - from); }
};

struct Plot {
  Scale x, y;
  Ticks x_ticks, y_ticks;
};

std::string px(double value) { return fmt::format("{:.1f}", value); }

// As many decimals as the step needs; large and tiny values in exponent form.
std::string tick_label(double value, double step) {
  if (std::abs(value) < step * 1e-9) value = 0;  // not "-0.0"
  if (std::abs(value) >= 1e6 || step < 1e-4) return fmt::format("{:.3g}", value);
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return fmt::format("{:.{}f}", value, decimals);
}

// A range that has width: a flat curve gets some room above and below.
std::pair<double, double> with_width(double low, double high) {
  if (high - low > std::abs(high) * 1e-12) return {low, high};
  const double pad = low == 0 ? 1 : std::abs(low) * 0.1;
  return {low - pad, high + pad};
}

// An axis whose ends are ticks, so the data sits inside round numbers.
Ticks rounded_axis(double low, double high) {
  const double step = nice_ticks(low, high, kTargetTicks).step;
  Ticks ticks;
  ticks.step = step;
  const auto first = static_cast<long long>(std::floor(low / step + 1e-9));
  const auto last = static_cast<long long>(std::ceil(high / step - 1e-9));
  for (long long k = first; k <= last; ++k) ticks.values.push_back(static_cast<double>(k) * step);
  return ticks;
}

struct LegendItem {
  std::string label;
  std::string css_class;
};

struct Legend {
  std::string svg;
  double height = 0;
};

// Swatch and label per item, wrapped into rows that fit between `left` and `right`.
Legend legend(const std::vector<LegendItem>& items, double left, double right) {
  Legend out;
  double x = left, row = 0;
  for (const auto& item : items) {
    const double width = 22 + kCharWidth * static_cast<double>(item.label.size()) + 14;
    if (x > left && x + width > right) {
      x = left;
      ++row;
    }
    const double y = kMarginTop + row * kLegendRowHeight;
    fmt::format_to(std::back_inserter(out.svg),
                   "<g class=\"{}\"><rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"16\" height=\"8\" rx=\"2\"/>"
                   "<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text></g>",
                   item.css_class, px(x), px(y + 3), px(x + 22), px(y + 11), html_escape(item.label));
    x += width;
  }
  out.height = items.empty() ? 0 : (row + 1) * kLegendRowHeight;
  return out;
}

// `x_tick_labels`, where given, label the x ticks one for one (already escaped), instead of their values.
void append_axes(std::string& svg, const Plot& plot, const std::string& x_label, const std::string& y_label,
                 const std::vector<std::string>* x_tick_labels = nullptr) {
  const double left = plot.x.from, right = plot.x.to, top = plot.y.to, bottom = plot.y.from;
  auto out = std::back_inserter(svg);
  for (const double value : plot.y_ticks.values) {
    const std::string y = px(plot.y(value));
    fmt::format_to(out, "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", px(left), px(right), y, y);
    fmt::format_to(out, "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\" dy=\"0.32em\">{}</text>",
                   px(left - 6), y, tick_label(value, plot.y_ticks.step));
  }
  for (std::size_t i = 0; i < plot.x_ticks.values.size(); ++i) {
    const double value = plot.x_ticks.values[i];
    const std::string x = px(plot.x(value));
    fmt::format_to(out, "<line class=\"axis\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", x, x, px(bottom),
                   px(bottom + 5));
    fmt::format_to(out, "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", x, px(bottom + 18),
                   x_tick_labels ? (*x_tick_labels)[i] : tick_label(value, plot.x_ticks.step));
  }
  fmt::format_to(out, "<line class=\"axis\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>", px(left), px(top),
                 px(bottom));
  fmt::format_to(out, "<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>", px(left), px(right),
                 px(bottom));
  fmt::format_to(out, "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                 px((left + right) / 2), px(bottom + 36), html_escape(x_label));
  fmt::format_to(out,
                 "<text class=\"axis-label\" transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}"
                 "</text>",
                 px((top + bottom) / 2), html_escape(y_label));
}

// The frame of a chart: the legend on top, then the plot; returns the opening <svg>.
std::string open_chart(const Legend& legend, double* plot_top, double* plot_bottom, const std::string& aria_label) {
  *plot_top = kMarginTop + legend.height + 10;
  *plot_bottom = *plot_top + kPlotHeight;
  const double height = *plot_bottom + kMarginBottom;
  return fmt::format("<svg class=\"chart\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">", px(kChartWidth),
                     px(height), html_escape(aria_label)) +
         legend.svg;
}

std::string polyline_points(const std::vector<CurvePoint>& points, const Plot& plot) {
  std::string text;
  for (const auto& point : points) {
    if (!text.empty()) text += ' ';
    text += px(plot.x(point.step)) + "," + px(plot.y(point.value));
  }
  return text;
}

std::string series_class(std::size_t index) { return fmt::format("series-{}", index % kSeriesClasses); }

std::vector<double> shares_of(const std::vector<double>& counts) {
  double total = 0;
  for (const double count : counts) total += count;
  std::vector<double> shares;
  for (const double count : counts) shares.push_back(total > 0 ? 100 * count / total : 0);
  return shares;
}

bool is_well_formed(const HistogramPair& pair) {
  const std::size_t bins = pair.reference.size();
  if (bins == 0 || pair.candidate.size() != bins || pair.edges.size() != bins + 1) return false;
  const auto finite = [](const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
  };
  return finite(pair.edges) && finite(pair.reference) && finite(pair.candidate);
}

// A closed step outline of one side's shares over the bin edges.
std::string step_area(const std::vector<double>& edges, const std::vector<double>& shares, const Plot& plot) {
  const std::string base = px(plot.y(0));
  std::string path = "M" + px(plot.x(edges.front())) + "," + base;
  for (std::size_t bin = 0; bin < shares.size(); ++bin) {
    const std::string y = px(plot.y(shares[bin]));
    path += "L" + px(plot.x(edges[bin])) + "," + y + "L" + px(plot.x(edges[bin + 1])) + "," + y;
  }
  return path + "L" + px(plot.x(edges.back())) + "," + base + "Z";
}

// ---- trends over recorded runs ----

constexpr double kCommitLabelWidth = 56;  // a 7-character hash in 11px text, with a gap

std::string point_name(const TrendPoint& point) {
  return point.commit.empty() ? fmt::format("run {}", point.run) : point.commit.substr(0, 7);
}

std::string trend_tooltip(const TrendChart& chart, const TrendPoint& point) {
  std::string text = fmt::format("run {}", point.run);
  if (!point.commit.empty()) text += ", commit " + point.commit.substr(0, 12);
  if (!point.branch.empty()) text += " on " + point.branch;
  text +=
      fmt::format(": {} {}{}", chart.metric, format_number(point.value), chart.unit.empty() ? "" : " " + chart.unit);
  if (point.current) text += " (this run)";
  if (point.baseline) text += " (the baseline)";
  if (!point.comparison.empty()) text += "; " + point.comparison;
  return html_escape(text);
}

// Every k-th point labelled, the newest always, so that the labels do not overlap.
void commit_ticks(const std::vector<TrendPoint>& points, double plot_width, Ticks& ticks,
                  std::vector<std::string>& labels) {
  const std::size_t n = points.size();
  const auto fit = static_cast<std::size_t>(std::max(1.0, std::floor(plot_width / kCommitLabelWidth)));
  const std::size_t stride = (n + fit - 1) / fit;
  for (std::size_t i = 0; i < n; ++i) {
    if ((n - 1 - i) % stride != 0) continue;
    ticks.values.push_back(static_cast<double>(i));
    labels.push_back(html_escape(point_name(points[i])));
  }
}

std::string trend_point(const TrendChart& chart, const TrendPoint& point, double x, double y) {
  std::string classes = "point";
  if (point.regressed) classes += " trend-regressed";
  if (point.current) classes += " trend-current";
  std::string svg = fmt::format("<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}</title></circle>", classes,
                                px(x), px(y), point.regressed || point.current ? 5 : 3.5, trend_tooltip(chart, point));
  if (point.baseline) {
    svg += fmt::format("<circle class=\"ring trend-baseline\" cx=\"{}\" cy=\"{}\" r=\"8\"/>", px(x), px(y));
  }
  return svg;
}

// The baseline's dashed line, labelled, behind the points.
std::string baseline_marks(const std::vector<TrendPoint>& points, const Plot& plot) {
  std::string svg;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].baseline) continue;
    const std::string x = px(plot.x(static_cast<double>(i)));
    svg += fmt::format(
        "<g class=\"trend-baseline\"><line class=\"baseline-mark\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" "
        "y2=\"{2}\"/><text class=\"tick\" x=\"{3}\" y=\"{4}\">baseline</text></g>",
        x, px(plot.y.to), px(plot.y.from), px(plot.x(static_cast<double>(i)) + 4), px(plot.y.to + 10));
  }
  return svg;
}

std::vector<LegendItem> trend_legend(const TrendChart& chart) {
  std::vector<LegendItem> items = {{chart.metric, series_class(0)}};
  const auto any = [&](bool TrendPoint::*flag) {
    return std::any_of(chart.points.begin(), chart.points.end(), [&](const TrendPoint& p) { return p.*flag; });
  };
  if (any(&TrendPoint::regressed)) items.push_back({"regressed", "trend-regressed"});
  if (any(&TrendPoint::baseline)) items.push_back({"baseline", "trend-baseline"});
  return items;
}

}  // namespace

std::string svg_trend_chart(const TrendChart& chart) {
  if (chart.points.empty()) return "";
  double y_low = std::numeric_limits<double>::infinity(), y_high = -y_low;
  for (const auto& point : chart.points) {
    y_low = std::min(y_low, point.value);
    y_high = std::max(y_high, point.value);
  }
  std::tie(y_low, y_high) = with_width(y_low, y_high);
  const std::string y_label = chart.unit.empty() ? chart.metric : chart.metric + " (" + chart.unit + ")";
  double top = 0, bottom = 0;
  std::string svg = open_chart(legend(trend_legend(chart), kMarginLeft, kChartWidth - kMarginRight), &top, &bottom,
                               y_label + " over recorded runs");
  Plot plot;
  plot.y_ticks = rounded_axis(y_low, y_high);
  plot.y = {plot.y_ticks.values.front(), plot.y_ticks.values.back(), bottom, top};
  const double n = static_cast<double>(chart.points.size());
  plot.x = {-0.5, n - 0.5, kMarginLeft, kChartWidth - kMarginRight};
  std::vector<std::string> labels;
  commit_ticks(chart.points, plot.x.to - plot.x.from, plot.x_ticks, labels);
  append_axes(svg, plot, "commit (oldest left)", y_label, &labels);
  svg += baseline_marks(chart.points, plot);
  std::vector<CurvePoint> line;
  for (std::size_t i = 0; i < chart.points.size(); ++i) line.push_back({static_cast<double>(i), chart.points[i].value});
  svg += "<g class=\"" + series_class(0) + "\">";
  if (line.size() > 1) svg += "<polyline class=\"line\" points=\"" + polyline_points(line, plot) + "\"/>";
  for (std::size_t i = 0; i < chart.points.size(); ++i) {
    svg += trend_point(chart, chart.points[i], plot.x(line[i].step), plot.y(line[i].value));
  }
  return svg + "</g></svg>";
}

Ticks nice_ticks(double low, double high, int target_count) {
  if (!(high > low)) high = low + 1;
  const double raw = (high - low) / std::max(target_count, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalised = raw / magnitude;
  Ticks ticks;
  ticks.step = magnitude * (normalised < 1.5 ? 1 : normalised < 3 ? 2 : normalised < 7 ? 5 : 10);
  const auto first = static_cast<long long>(std::ceil(low / ticks.step - 1e-9));
  const auto last = static_cast<long long>(std::floor(high / ticks.step + 1e-9));
  for (long long k = first; k <= last; ++k) ticks.values.push_back(static_cast<double>(k) * ticks.step);
  return ticks;
}

std::string svg_line_chart(const std::vector<ChartSeries>& series, const std::string& x_label,
                           const std::string& y_label) {
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low, y_low = x_low, y_high = -x_low;
  std::vector<LegendItem> items;
  for (std::size_t i = 0; i < series.size(); ++i) {
    items.push_back({series[i].label, series_class(i)});
    for (const auto& point : series[i].points) {
      x_low = std::min(x_low, point.step);
      x_high = std::max(x_high, point.step);
      y_low = std::min(y_low, point.value);
      y_high = std::max(y_high, point.value);
    }
  }
  if (!(x_low <= x_high)) return "";  // no points at all
  std::tie(x_low, x_high) = with_width(x_low, x_high);
  std::tie(y_low, y_high) = with_width(y_low, y_high);

  double top = 0, bottom = 0;
  std::string svg =
      open_chart(legend(items, kMarginLeft, kChartWidth - kMarginRight), &top, &bottom, y_label + " over " + x_label);
  Plot plot;
  plot.y_ticks = rounded_axis(y_low, y_high);
  plot.y = {plot.y_ticks.values.front(), plot.y_ticks.values.back(), bottom, top};
  plot.x_ticks = nice_ticks(x_low, x_high, kTargetTicks);
  plot.x = {x_low, x_high, kMarginLeft, kChartWidth - kMarginRight};
  append_axes(svg, plot, x_label, y_label);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& points = series[i].points;
    if (points.empty()) continue;
    svg += "<g class=\"" + series_class(i) + "\">";
    if (points.size() == 1) {
      svg += fmt::format("<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"3\"/>", px(plot.x(points[0].step)),
                         px(plot.y(points[0].value)));
    } else {
      svg += "<polyline class=\"line\" points=\"" + polyline_points(points, plot) + "\"/>";
    }
    svg += "</g>";
  }
  return svg + "</svg>";
}

std::string svg_histogram_chart(const HistogramPair& pair) {
  if (!is_well_formed(pair)) return "";
  const std::vector<double> reference = shares_of(pair.reference), candidate = shares_of(pair.candidate);
  const double highest = std::max(*std::max_element(reference.begin(), reference.end()),
                                  *std::max_element(candidate.begin(), candidate.end()));
  const auto [x_low, x_high] = with_width(pair.edges.front(), pair.edges.back());

  double top = 0, bottom = 0;
  const std::vector<LegendItem> items = {{"reference", "hist-reference"}, {"candidate", "hist-candidate"}};
  std::string svg =
      open_chart(legend(items, kMarginLeft, kChartWidth - kMarginRight), &top, &bottom, "histograms of " + pair.key);
  Plot plot;
  plot.y_ticks = rounded_axis(0, highest > 0 ? highest : 1);
  plot.y = {0, plot.y_ticks.values.back(), bottom, top};
  plot.x_ticks = nice_ticks(x_low, x_high, kTargetTicks);
  plot.x = {x_low, x_high, kMarginLeft, kChartWidth - kMarginRight};
  append_axes(svg, plot, "value", "share of values (%)");
  svg += "<path class=\"area hist-reference\" d=\"" + step_area(pair.edges, reference, plot) + "\"/>";
  svg += "<path class=\"area hist-candidate\" d=\"" + step_area(pair.edges, candidate, plot) + "\"/>";
  return svg + "</svg>";
}

std::string svg_stacked_bar(const std::vector<BarSegment>& segments, double full_scale) {
  constexpr double kWidth = 240, kHeight = 14;
  std::string svg = fmt::format(
      "<svg class=\"bar\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\"><rect class=\"track\" width=\"{0}\" "
      "height=\"{1}\" rx=\"2\"/>",
      kWidth, kHeight);
  double x = 0;
  for (const auto& segment : segments) {
    const double share = full_scale > 0 && std::isfinite(segment.value) ? segment.value / full_scale : 0;
    const double width = std::clamp(share * kWidth, 0.0, kWidth - x);
    svg += fmt::format("<rect class=\"{}\" x=\"{}\" width=\"{}\" height=\"{}\"><title>{}</title></rect>",
                       html_escape(segment.css_class), px(x), px(width), kHeight, html_escape(segment.label));
    x += width;
  }
  return svg + "</svg>";
}

std::string svg_limit_gauge(double value, double limit, bool passed) {
  constexpr double kWidth = 180, kHeight = 14, kDecadesBelow = 4, kDecadesAbove = 2;
  const auto position = [&](double ratio) {
    if (!(ratio > 0)) return std::isnan(ratio) ? kWidth : 0.0;
    const double decades = std::clamp(std::log10(ratio), -kDecadesBelow, kDecadesAbove);
    return (decades + kDecadesBelow) / (kDecadesBelow + kDecadesAbove) * kWidth;
  };
  const double ratio = limit > 0 ? std::abs(value) / limit : (value == 0 ? 0 : std::numeric_limits<double>::infinity());
  const double limit_x = position(1);
  return fmt::format(
      "<svg class=\"gauge\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\">"
      "<title>value / limit = {2:.3g} (scale: 1e-4 to 1e2)</title>"
      "<rect class=\"track\" width=\"{0}\" height=\"{1}\" rx=\"2\"/>"
      "<rect class=\"{3}\" width=\"{4}\" height=\"{1}\" rx=\"2\"/>"
      "<line class=\"limit\" x1=\"{5}\" x2=\"{5}\" y1=\"0\" y2=\"{1}\"/></svg>",
      kWidth, kHeight, ratio, passed ? "gauge-pass" : "gauge-fail", px(position(ratio)), px(limit_x));
}

}  // namespace tipc::report
