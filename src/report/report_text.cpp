#include "report/report_text.h"

#include <fmt/format.h>

namespace tipc::report {

std::string format_number(double value) { return fmt::format("{:.6g}", value); }

std::string check_value_line(const CheckValue& value) {
  const std::string limit =
      value.limit ? fmt::format(" {} limit {}", value.passed ? "<=" : ">", format_number(*value.limit)) : "";
  return fmt::format("{} = {}{}: {}", value.label, format_number(value.value), limit, value.passed ? "PASS" : "FAIL");
}

}  // namespace tipc::report
