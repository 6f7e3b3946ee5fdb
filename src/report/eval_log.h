#pragma once
// Eval logs: the last value of every metric on the log's lines (positions left out).
#include <map>
#include <string>
#include <string_view>

#include "report/log_fields.h"
#include "report/run_report.h"

namespace tipc::report {

class EvalValues {
 public:
  explicit EvalValues(const MetricsLimits& limits) : limits_(limits) {}

  void add_line(std::string_view line);

  void finish(StageMetrics& metrics) && { metrics.final_values = std::move(values_); }

 private:
  MetricsLimits limits_;
  std::map<std::string, double> values_;
};

}  // namespace tipc::report
