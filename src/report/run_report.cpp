#include "report/run_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "run/outcome.h"

namespace tipc::report {

int RunReport::count(const std::string& result) const {
  int n = 0;
  for (const auto& plan : plans) {
    for (const auto& stage : plan.stages) n += stage.result == result ? 1 : 0;
  }
  return n;
}

int RunReport::exit_code(bool strict) const {
  if (interrupted) return kExitInterrupted;
  for (const auto& plan : plans) {
    for (const auto& stage : plan.stages) {
      // A result this version does not know is no pass.
      const auto status = run::status_from_string(stage.result).value_or(run::Status::kUnresolved);
      if (run::is_failure(status) || (strict && status == run::Status::kUnsupported)) return kExitFailed;
    }
  }
  return invalid_configs.empty() ? kExitPassed : kExitUsage;
}

double closeness_to_limit(const CheckValue& value) {
  if (std::isnan(value.value)) return std::numeric_limits<double>::infinity();
  return value.limit && *value.limit > 0 ? value.value / *value.limit : value.value;
}

std::vector<const CheckValue*> headline_values(const CheckDetails& check, std::size_t max_failing, std::size_t nearest) {
  std::vector<const CheckValue*> values;
  for (const auto& value : check.values) values.push_back(&value);
  std::stable_sort(values.begin(), values.end(), [](const CheckValue* a, const CheckValue* b) {
    return closeness_to_limit(*a) > closeness_to_limit(*b);
  });
  const auto failing = static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [](const CheckValue* v) { return !v->passed; }));
  values.resize(std::min(values.size(), failing > 0 ? std::min(failing, max_failing) : nearest));
  return values;
}

const char* verdict(const RunReport& report) {
  switch (report.exit_code(false)) {
    case kExitPassed: return "PASS";
    case kExitInterrupted: return "INTERRUPTED";
    default: return "FAIL";
  }
}

}  // namespace tipc::report
