#pragma once
// Metrics for the reports, read from a stage's log: the reader of its kind's log format
// (train_log, with benchmark_log for the figures on its lines; eval_log; autolog for infer
// logs), fed line by line. The parser streams: memory stays bounded by the point cap per
// curve (MetricsLimits), whatever the size of the log.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/stage_kind.h"
#include "report/log_fields.h"
#include "report/run_report.h"

namespace tipc::report {

// Parses the log of a stage of the given kind (train, eval, infer; other kinds have no
// metrics). Feed the log in chunks of any size, then call finish() once.
class StageMetricsParser {
 public:
  explicit StageMetricsParser(StageKind kind, MetricsLimits limits = {});
  ~StageMetricsParser();
  StageMetricsParser(const StageMetricsParser&) = delete;
  StageMetricsParser& operator=(const StageMetricsParser&) = delete;

  void feed(std::string_view chunk);
  StageMetrics finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

StageMetrics parse_stage_metrics(StageKind kind, const std::string& log_text);

// Streams the file; a missing or unreadable log has no metrics.
StageMetrics parse_stage_metrics_file(StageKind kind, const std::string& path);

}  // namespace tipc::report
