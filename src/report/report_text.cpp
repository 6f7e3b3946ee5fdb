#include "report/report_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tipc::report {

std::string format_number(double value) { return fmt::format("{:.6g}", value); }

std::string check_value_line(const CheckValue& value) {
  const std::string limit =
      value.limit ? fmt::format(" {} limit {}", value.passed ? "<=" : ">", format_number(*value.limit)) : "";
  return fmt::format("{} = {}{}: {}", value.label, format_number(value.value), limit, value.passed ? "PASS" : "FAIL");
}

std::string check_failures_text(const CheckDetails& check) {
  std::string text;
  for (const CheckValue& value : check.values) {
    if (!value.passed) text += check_value_line(value) + "\n";
  }
  if (text.empty()) return "";
  for (const std::string& note : check.notes) text += "note: " + note + "\n";
  return text;
}

std::string gpus_text(const std::vector<std::string>& gpus, const std::string& source) {
  const std::string listed = gpus.empty() ? "none" : fmt::format("{}", fmt::join(gpus, ", "));
  return source.empty() || source == "none" ? listed : listed + " (" + source + ")";
}

}  // namespace tipc::report
