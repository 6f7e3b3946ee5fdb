#include "gate/comparison_rows.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/report_text.h"

namespace tipc::gate {
namespace {

std::string value_text(double value, const std::string& unit) {
  if (std::isnan(value)) return "-";
  return unit.empty() ? report::format_number(value) : report::format_number(value) + " " + unit;
}

ComparisonRow result_row(const StageComparison& stage) {
  ComparisonRow row{stage.result, Severity::kFail, stage.config, stage.mode, stage.stage, "result", "-", "-", "",
                    "",           stage.why};
  if (stage.base_result) row.base = to_string(*stage.base_result);
  if (stage.current_result) row.current = to_string(*stage.current_result);
  return row;
}

ComparisonRow figure_row(const StageComparison& stage, const FigureComparison& figure) {
  const stats::Comparison& c = figure.comparison;
  const bool both = figure.result != Class::kNew && figure.result != Class::kGone;
  ComparisonRow row{figure.result,
                    figure.severity,
                    stage.config,
                    stage.mode,
                    stage.stage,
                    figure.name,
                    figure.result == Class::kNew ? "-" : value_text(c.base, figure.unit),
                    figure.result == Class::kGone ? "-" : value_text(c.current, figure.unit),
                    both ? fmt::format("{:+.2f}%", c.relative_change * 100) : "",
                    c.p_value ? fmt::format("{:.3g}", *c.p_value) : "",
                    both ? c.why : ""};
  if (!figure.rule.empty()) row.why += (row.why.empty() ? "rule " : "; rule ") + figure.rule;
  return row;
}

}  // namespace

std::vector<ComparisonRow> comparison_rows(const RunComparison& comparison) {
  std::vector<ComparisonRow> rows;
  for (const StageComparison& stage : comparison.stages) {
    if (stage.result != Class::kUnchanged) rows.push_back(result_row(stage));
    for (const FigureComparison& figure : stage.figures) rows.push_back(figure_row(stage, figure));
  }
  return rows;
}

std::string comparison_summary(const std::vector<ComparisonRow>& rows) {
  const auto count = [&](Class c) {
    return std::count_if(rows.begin(), rows.end(), [&](const auto& r) { return r.result == c; });
  };
  const auto failing = std::count_if(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.fails(); });
  return fmt::format("{} regressed ({} failing), {} improved, {} unchanged, {} new, {} gone", count(Class::kRegressed),
                     failing, count(Class::kImproved), count(Class::kUnchanged), count(Class::kNew),
                     count(Class::kGone));
}

}  // namespace tipc::gate
