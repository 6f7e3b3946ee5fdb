#include "gate/comparison_files.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/xml_escape.h"

namespace tipc::gate {
namespace {

using nlohmann::ordered_json;

ordered_json optional_json(const std::optional<double>& value) { return value ? ordered_json(*value) : ordered_json(); }

// JSON has no infinity or NaN: a change from 0 or an absent side is null.
ordered_json finite_json(double value) { return std::isfinite(value) ? ordered_json(value) : ordered_json(); }

ordered_json figure_json(const FigureComparison& figure) {
  const stats::Comparison& c = figure.comparison;
  return {{"name", figure.name},
          {"unit", figure.unit},
          {"class", to_string(figure.result)},
          {"severity", to_string(figure.severity)},
          {"baseline", finite_json(c.base)},
          {"new", finite_json(c.current)},
          {"relative_change", finite_json(c.relative_change)},
          {"p_value", optional_json(c.p_value)},
          {"rank_biserial", optional_json(c.rank_biserial)},
          {"baseline_samples", figure.base_samples},
          {"new_samples", figure.current_samples},
          {"rule", figure.rule},
          {"why", c.why}};
}

ordered_json stage_json(const StageComparison& stage) {
  ordered_json figures = ordered_json::array();
  for (const FigureComparison& figure : stage.figures) figures.push_back(figure_json(figure));
  const auto result = [](const std::optional<run::Status>& s) {
    return s ? ordered_json(to_string(*s)) : ordered_json();
  };
  return {{"config", stage.config},
          {"mode", stage.mode},
          {"stage", stage.stage},
          {"class", to_string(stage.result)},
          {"baseline_result", result(stage.base_result)},
          {"new_result", result(stage.current_result)},
          {"why", stage.why},
          {"figures", figures}};
}

std::string attribute(const std::string& text) { return report::xml_escape(text, report::XmlContext::kAttribute); }

}  // namespace

nlohmann::ordered_json comparison_json(const ComparedRuns& runs, const RunComparison& comparison) {
  ordered_json counts;
  for (Class c : {Class::kRegressed, Class::kImproved, Class::kUnchanged, Class::kNew, Class::kGone}) {
    counts[to_string(c)] = comparison.count(c);
  }
  ordered_json stages = ordered_json::array();
  for (const StageComparison& stage : comparison.stages) stages.push_back(stage_json(stage));
  return {{"schema", 1},         {"baseline", runs.base},
          {"new", runs.current}, {"verdict", comparison.failed() ? "REGRESSED" : "OK"},
          {"counts", counts},    {"stages", stages}};
}

std::string comparison_junit(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows) {
  std::string cases;
  for (const ComparisonRow& row : rows) {
    const std::string text =
        fmt::format("{}: {} -> {} {}; {}", to_string(row.result), row.base, row.current, row.change, row.why);
    cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">",
                         attribute(row.config + " " + row.mode + " " + row.stage), attribute(row.figure));
    cases += row.fails()
                 ? fmt::format("<failure message=\"{}\" type=\"REGRESSED\"/>", attribute(text))
                 : fmt::format("<system-out>{}</system-out>", report::xml_escape(text, report::XmlContext::kText));
    cases += "</testcase>\n";
  }
  const auto failures = std::count_if(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.fails(); });
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"{}\" tests=\"{}\" "
      "failures=\"{}\" errors=\"0\" skipped=\"0\">\n{}  </testsuite>\n</testsuites>\n",
      attribute("tipc-run compare " + runs.base + " " + runs.current), rows.size(), failures, cases);
}

}  // namespace tipc::gate
