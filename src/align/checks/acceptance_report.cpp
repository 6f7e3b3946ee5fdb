#include "align/checks/acceptance_report.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "align/io/py_repr.h"

namespace tipc::align {
namespace {

namespace fs = std::filesystem;

std::string files_column(const std::string& dir, const CheckOutcome& outcome) {
  if (!outcome.files) return "-";
  const auto relative = [&](const std::string& path) { return fs::path(path).lexically_relative(dir).string(); };
  return relative(outcome.files->reference) + " vs " + relative(outcome.files->candidate);
}

std::string worst_column(const CheckOutcome& outcome) {
  if (!outcome.worst_value) return "-";
  return python_float_repr(*outcome.worst_value);
}

}  // namespace

std::string render_acceptance_table(const std::string& dir, const AcceptanceReport& report) {
  std::string out;
  std::size_t files_width = 5;
  for (const auto& outcome : report.outcomes) files_width = std::max(files_width, files_column(dir, outcome).size());
  const auto row = [&](const std::string& check, const std::string& files, const std::string& method,
                       const std::string& threshold, const std::string& worst, const std::string& status) {
    out += fmt::format("{:<12} {:<{}} {:<6} {:<10} {:<22} {}\n", check, files, files_width, method, threshold, worst,
                       status);
  };
  row("check", "files", "method", "threshold", "worst value", "result");
  for (const auto& outcome : report.outcomes) {
    row(outcome.check.name, files_column(dir, outcome), outcome.check.method,
        python_float_repr(outcome.check.threshold), worst_column(outcome), to_string(outcome.status));
  }
  return out;
}

std::vector<std::string> acceptance_findings(const AcceptanceReport& report) {
  std::vector<std::string> lines;
  for (const auto& outcome : report.outcomes) {
    for (const std::string& warning : outcome.warnings)
      lines.push_back("warning: " + outcome.check.name + ": " + warning);
    if (outcome.status != Verdict::kPass && !outcome.detail.empty())
      lines.push_back(outcome.check.name + " " + to_string(outcome.status) + ": " + outcome.detail);
  }
  return lines;
}

}  // namespace tipc::align
