#pragma once
// Train logs: curves and benchmark figures. A train line is one with a position
// (global_step, iter, epoch) and at least one metric; the x of its points is the global
// iteration, per rank when the line names one (log_fields finds the fields). The demo's,
// PaddleOCR's, PaddleClas' and PaddleSeg's train lines, interleaved ranks and garbage all go
// through this one reader; the same lines' benchmark figures go to benchmark_log.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/benchmark_log.h"
#include "report/log_curve.h"
#include "report/log_fields.h"
#include "report/run_report.h"

namespace tipc::report {

// The x of a rank's points. Iteration counters either restart every epoch (the demo,
// PaddleClas) or count on (PaddleSeg); a counter that went back when the epoch moved on
// restarted, so the epoch's length is added to an offset. An epoch that went back means
// the log starts over (TIPC appends the trainer's own log to the stage log), so the count
// starts over too and gives the same x again. A log with iterations also has per-epoch
// summaries (PaddleClas' `[Epoch 1/10][Avg]`); they have no x of their own.
class RankProgress {
 public:
  std::optional<double> global_iteration(const log_fields::Position& position) {
    if (position.global_step) return *position.global_step;
    if (!position.iter) return first_iter_ ? std::nullopt : position.epoch;
    if (position.epoch && last_epoch_ && *position.epoch < *last_epoch_) start_over();
    const double iter = *position.iter;
    if (!first_iter_) first_iter_ = iter;
    if (position.epoch && last_epoch_ && *position.epoch > *last_epoch_ && iter <= last_iter_) {
      offset_ += position.iters_per_epoch ? *position.iters_per_epoch : last_iter_ + (*first_iter_ == 0 ? 1 : 0);
    }
    if (position.epoch) last_epoch_ = position.epoch;
    last_iter_ = iter;
    return offset_ + iter;
  }

 private:
  void start_over() {
    offset_ = 0;
    last_iter_ = 0;
    last_epoch_.reset();
  }

  double offset_ = 0, last_iter_ = 0;
  std::optional<double> last_epoch_, first_iter_;
};

class TrainCurves {
 public:
  explicit TrainCurves(const MetricsLimits& limits) : limits_(limits), figures_(limits) {}

  // Two ranks writing at once can leave two records on one line; a key seen again starts
  // the next record.
  void add_line(std::string_view line);

  void finish(StageMetrics& metrics) &&;

 private:
  struct Record {
    std::vector<std::string_view> keys;
    log_fields::Position position;
    std::vector<std::pair<std::string_view, double>> metrics;
    std::vector<FigureValue> figures;
  };

  // Benchmark figures count on lines without a position too (a plain `ips: 12 samples/s`).
  void add_record(const Record& record);

  void add_point(const std::string& name, CurvePoint point);

  MetricsLimits limits_;
  std::map<int, RankProgress> progress_;  // by rank; -1 when lines name none
  std::vector<CurveBuilder> builders_;    // in order of first appearance
  std::map<std::string, std::size_t> index_;
  BenchmarkCollector figures_;
};

}  // namespace tipc::report
