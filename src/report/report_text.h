#pragma once
// Wording shared by the text reports (JUnit XML, summary.md).
#include <string>

#include "report/run_report.h"

namespace tipc::report {

// Six significant digits, "nan" and "inf" spelled so.
std::string format_number(double value);

// "logits: max = 2e-05 > limit 1e-06: FAIL"
std::string check_value_line(const CheckValue& value);

}  // namespace tipc::report
