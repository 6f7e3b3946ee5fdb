#include "gate/comparison_text.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/text.h"
#include "report/markdown_text.h"

namespace tipc::gate {
namespace {

bool any_fails(const std::vector<ComparisonRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& row) { return row.fails(); });
}

std::string headline(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows) {
  return fmt::format("{}: {} against {}: {}", any_fails(rows) ? "REGRESSED" : "OK", runs.current, runs.base,
                     comparison_summary(rows));
}

std::string class_word(const ComparisonRow& row) {
  const std::string word = to_string(row.result);
  return row.result == Class::kRegressed && row.severity == Severity::kWarn ? word + " (warn)" : word;
}

using Cells = std::array<std::string, 7>;  // class, stage, figure, baseline -> new, change, p, why

Cells cells_of(const ComparisonRow& row) {
  return {class_word(row), row.stage,
          row.figure,      row.base + " -> " + row.current,
          row.change,      row.p_value.empty() ? "" : "p=" + row.p_value,
          row.why};
}

std::string aligned(const std::vector<std::pair<std::string, Cells>>& lines) {
  std::array<std::size_t, 7> width{};
  for (const auto& [group, cells] : lines) {
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  }
  std::string out, group_shown;
  for (const auto& [group, cells] : lines) {
    if (group != group_shown) out += "  " + (group_shown = group) + "\n";
    std::string line = "    ";
    for (std::size_t i = 0; i < cells.size(); ++i) line += fmt::format("{:<{}}  ", cells[i], width[i]);
    out += std::string(trim_end(line, " ")) + "\n";
  }
  return out;
}

std::string markdown_row(const ComparisonRow& row) {
  using report::markdown_cell;
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", class_word(row),
                     report::markdown_code(row.config + " " + row.mode + " " + row.stage), markdown_cell(row.figure),
                     markdown_cell(row.base), markdown_cell(row.current), markdown_cell(row.change),
                     markdown_cell(row.p_value), markdown_cell(row.why));
}

constexpr const char* kMarkdownHeader =
    "| | stage | figure | baseline | new | change | p | why |\n|---|---|---|---|---|---|---|---|\n";

}  // namespace

std::string console_comparison(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows, bool all) {
  std::vector<std::pair<std::string, Cells>> lines;
  for (const ComparisonRow& row : rows) {
    if (all || row.result != Class::kUnchanged) lines.emplace_back(row.config + " " + row.mode, cells_of(row));
  }
  return "tipc-run compare: " + headline(runs, rows) + "\n" + aligned(lines);
}

std::string markdown_comparison(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows) {
  std::string changed, unchanged;
  std::size_t unchanged_rows = 0;
  for (const ComparisonRow& row : rows) {
    if (row.result == Class::kUnchanged)
      ++unchanged_rows, unchanged += markdown_row(row);
    else
      changed += markdown_row(row);
  }
  std::string out = fmt::format("### {} tipc-run compare: {}\n\n", any_fails(rows) ? "❌" : "✅",
                                report::markdown_cell(headline(runs, rows)));
  out += fmt::format("Baseline {} · new {}\n\n", report::markdown_code(runs.base), report::markdown_code(runs.current));
  if (!changed.empty()) out += kMarkdownHeader + changed + "\n";
  if (unchanged_rows > 0) {
    out += fmt::format("<details><summary>{} unchanged</summary>\n\n{}{}\n</details>\n", unchanged_rows,
                       kMarkdownHeader, unchanged);
  }
  return out;
}

}  // namespace tipc::gate
