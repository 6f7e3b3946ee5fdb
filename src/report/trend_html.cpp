#include "report/trend_html.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/plural.h"
#include "report/html_report.h"
#include "report/html_text.h"
#include "report/report_text.h"
#include "report/svg_chart.h"

namespace tipc::report {
namespace {

std::string commit_text(const TrendPoint& point) {
  return point.commit.empty() ? "outside git" : "<code>" + html_escape(point.commit.substr(0, 12)) + "</code>";
}

std::string regression_row(const TrendChart& chart, const TrendPoint& point) {
  return fmt::format(
      "<tr><td><code>{}</code><div class=\"muted\">{} &#183; {}</div></td><td><code>{}</code></td>"
      "<td class=\"num\">{}</td><td>{}{}</td><td>{}</td></tr>\n",
      html_escape(chart.stage), html_escape(chart.config), html_escape(chart.mode), html_escape(chart.metric),
      point.run, commit_text(point), point.branch.empty() ? "" : " " + html_escape(point.branch),
      html_escape(point.comparison));
}

// Every regressed point, in chart order.
std::string regressions(const HistoryTrends& trends) {
  std::string rows;
  std::size_t n = 0;
  for (const TrendChart& chart : trends.charts) {
    for (const TrendPoint& point : chart.points) {
      if (!point.regressed) continue;
      rows += regression_row(chart, point);
      ++n;
    }
  }
  if (rows.empty()) return "<p class=\"muted\">No point regressed against the one it was compared with.</p>\n";
  return fmt::format("<h3>{} regressed</h3>\n", plural(n, "point")) +
         "<div class=\"wide\"><table><thead><tr><th>Stage</th><th>Figure</th><th class=\"num\">Run</th><th>Commit</th>"
         "<th>Comparison</th></tr></thead><tbody>\n" +
         rows + "</tbody></table></div>\n";
}

std::string chart_figure(const TrendChart& chart) {
  return fmt::format(
      "<figure><figcaption><code>{}</code> <span class=\"muted\">{} &#183; {} is better</span></figcaption>\n{}"
      "</figure>\n",
      html_escape(chart.metric), html_escape(chart.stage), chart.higher_is_better ? "higher" : "lower",
      svg_trend_chart(chart));
}

// The charts, a heading and a grid per config and MODE (they come grouped).
std::string chart_groups(const HistoryTrends& trends) {
  std::string html, group;
  for (const TrendChart& chart : trends.charts) {
    const std::string heading =
        html_escape(chart.config) + " <span class=\"muted\">&#183; " + html_escape(chart.mode) + "</span>";
    if (heading != group) {
      html += (group.empty() ? "" : "</div>\n") + fmt::format("<h3>{}</h3>\n<div class=\"charts\">\n", heading);
      group = heading;
    }
    html += chart_figure(chart);
  }
  return html.empty() ? html : html + "</div>\n";
}

}  // namespace

std::string trend_section(const HistoryTrends& trends) {
  if (trends.charts.empty()) return "";
  const std::string key =
      "<p class=\"key\">The median of each gated figure per recorded run, oldest left, labelled by commit (run, "
      "branch and comparison in each point's tooltip). Each point is compared, by the rules of <code>tipc-run "
      "compare</code>, with the point before it (this run's with its baseline, when --baseline named one)."
      "<span class=\"swatch trend-regressed\"></span>regressed<span class=\"swatch trend-baseline\"></span>"
      "baseline</p>\n";
  const std::string left_out =
      trends.charts_left_out == 0
          ? ""
          : fmt::format(" ({} more left out; <code>tipc-run history --html DIR</code> draws them all)",
                        trends.charts_left_out);
  return fmt::format(
             "<section class=\"plan\" id=\"history\">\n<h2>History</h2>\n<p class=\"meta\">{}{} from the "
             "run history <code>{}</code></p>\n",
             plural(trends.charts.size(), "chart"), left_out, html_escape(trends.history)) +
         key + regressions(trends) + chart_groups(trends) + "</section>\n";
}

std::string render_trend_page(const HistoryTrends& trends) {
  const std::string body = trends.charts.empty()
                               ? "<p class=\"muted\">No recorded run has a gated figure of a stage that passed.</p>\n"
                               : trend_section(trends);
  return html_page_head("tipc-run history") +
         "<header class=\"banner nothing\">\n<div class=\"tool\">tipc-run history</div>\n<h1>Gated figures over the "
         "recorded runs</h1>\n</header>\n<main>\n" +
         body + "</main>\n<footer>tipc-run history</footer>\n</body>\n</html>\n";
}

}  // namespace tipc::report
