#pragma once
// Metrics for the reports, read from a stage's log: train curves, eval results and
// AutoLog inference timings (alignment-diff spec, section 5.1).
//
// Logs are free text written by many trainers, so parsing is by fields, not by whole-line
// formats: every `key: value`, `key: a/b`, `key: [a/b]` and `Key a/b` (as in
// `[Epoch 1/10]` or `rank 0/2`) on a line is a field. A train line is one with a position
// (global_step, iter, epoch) and at least one metric; the x of its points is the global
// iteration, per rank when the line names one. Lines that match nothing are skipped, so
// interleaved output and garbage cost nothing. The parser streams: memory stays bounded
// by the point cap per curve, whatever the size of the log.
//
// Train lines also carry benchmark figures (BenchmarkFigures): `ips` / `avg_ips` with its
// unit (`samples/s`, `images/sec`), `batch_cost` / `avg_batch_cost` and `reader_cost` /
// `avg_reader_cost` / `data_cost` in seconds (`ms` converted; a bare number is seconds),
// and `max_mem_reserved` / `max_mem_allocated` in MB (GB converted), as PaddleOCR,
// PaddleClas, PaddleDetection and PaddleSeg log them, with or without a position on the
// line. Per rank, the first two steps are left out of the median and the mean when there
// are more (the benchmark's `analysis.py --skip_steps 2`); the ranks' values are pooled.
// The median is taken over the values kept under the point cap (all of them below it).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "report/run_report.h"

namespace tipc::report {

struct MetricsLimits {
  std::size_t max_points_per_curve = 2000;  // evenly thinned beyond this, first and last kept
  std::size_t max_curves = 64;              // new names beyond this are ignored
  std::size_t max_final_values = 64;
  std::size_t max_line = 16 << 10;          // longer lines are parsed up to this length
};

// Parses the log of a stage of the given kind (train, eval, infer; other kinds have no
// metrics). Feed the log in chunks of any size, then call finish() once.
class StageMetricsParser {
 public:
  explicit StageMetricsParser(std::string kind, MetricsLimits limits = {});
  ~StageMetricsParser();
  StageMetricsParser(const StageMetricsParser&) = delete;
  StageMetricsParser& operator=(const StageMetricsParser&) = delete;

  void feed(std::string_view chunk);
  StageMetrics finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

StageMetrics parse_stage_metrics(const std::string& kind, const std::string& log_text);

// Streams the file; a missing or unreadable log has no metrics.
StageMetrics parse_stage_metrics_file(const std::string& kind, const std::string& path);

// A curve of one rank is named "loss (rank 1)"; without a rank just "loss".
std::string curve_name(std::string_view metric, std::optional<int> rank);

struct CurveNameParts {
  std::string metric;
  std::optional<int> rank;
};
CurveNameParts split_curve_name(std::string_view name);

}  // namespace tipc::report
