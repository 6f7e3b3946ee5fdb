#pragma once
// Infer logs: AutoLog's summary, the timings and settings PaddleInference's AutoLog prints
// after an inference run, in its Python and its C++ form, with its memory line.
#include <optional>
#include <string>
#include <string_view>

#include "report/log_fields.h"
#include "report/run_report.h"

namespace tipc::report {

class AutoLogTimings {
 public:
  void add_line(std::string_view line);

  void finish(StageMetrics& metrics) && {
    if (found_) metrics.timings = timings_;
  }

 private:
  void take(const std::string& key, std::string_view value);

  // `gpu_util: 3.0%` is a number with its sign glued; `None` is no number.
  std::optional<double>* number_slot(const std::string& key);

  InferenceTimings timings_;
  bool found_ = false;
};

}  // namespace tipc::report
