#pragma once
// Benchmark figures (BenchmarkFigures) on a train log's lines: `ips` / `avg_ips` with its unit
// (`samples/s`, `images/sec`), `batch_cost` / `avg_batch_cost` and `reader_cost` /
// `avg_reader_cost` / `data_cost` in seconds (`ms` converted; a bare number is seconds), and
// `max_mem_reserved` / `max_mem_allocated` in MB (GB converted), as PaddleOCR, PaddleClas,
// PaddleDetection and PaddleSeg log them, with or without a position on the line. Per rank,
// the first two steps are left out of the median and the mean when there are more (the
// benchmark's `analysis.py --skip_steps 2`); the ranks' values are pooled. The median is taken
// over the values kept under the point cap (all of them below it). train_log finds the fields
// and hands them here.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/log_curve.h"
#include "report/log_fields.h"
#include "report/run_report.h"

namespace tipc::report {

enum class Figure { kIps, kBatchCost, kReaderCost, kMemReserved, kMemAllocated };
constexpr std::size_t kStepFigures = 3;  // ips, batch cost, reader cost: summarised per step
// The benchmark's analysis step (`analysis.py --skip_steps 2` in benchmark_train.sh) leaves
// out the first steps: they pay for warm-up, not for training.
constexpr std::size_t kWarmupSteps = 2;

// PaddleOCR writes `avg_batch_cost`, PaddleDetection `data_cost` for the reader's.
std::optional<Figure> figure_of(const std::string& key);

// The unit written after a value: glued to it (`0.28312s`) or the next word (`6.66 samples/s`,
// `3988 MB`). The next word may be the next field (`batch_cost: 0.5 data_cost: 0.01`); the
// callers accept only the units they know.
std::string_view unit_after(std::string_view line, std::string_view value);

struct FigureValue {
  Figure figure = Figure::kIps;
  double value = 0;      // seconds for costs, MiB for memory
  std::string ips_unit;  // ips only: "samples/s", "images/sec", ...; "" when none is written
};

// Costs are seconds unless written in ms; memory MB unless written in GB or KB.
FigureValue figure_value(Figure figure, double value, std::string_view unit);

// One step figure of one rank over its logged steps (x: 1, 2, ...): its values thinned like
// a curve's, for the chart and the median, and exact sums for the mean. The warm-up steps
// are left out of the statistics when the rank logged more.
class StepFigure {
 public:
  StepFigure(std::string name, std::size_t cap) : curve_(std::move(name), cap) {}

  void add(double value) {
    ++steps_;
    curve_.add({static_cast<double>(steps_), value});
    (steps_ <= kWarmupSteps ? warmup_sum_ : measured_sum_) += value;
  }

  struct Summary {
    Curve curve;
    std::vector<double> values;  // the (thinned) values the statistics take
    double sum = 0;
    std::size_t count = 0, skipped = 0;
  };

  Summary finish() && {
    const bool skip = steps_ > kWarmupSteps;
    Summary summary{std::move(curve_).finish(), {}, skip ? measured_sum_ : warmup_sum_, 0, skip ? kWarmupSteps : 0};
    summary.count = steps_ - summary.skipped;
    for (const CurvePoint& point : summary.curve.points) {
      if (!skip || point.step > kWarmupSteps) summary.values.push_back(point.value);
    }
    return summary;
  }

 private:
  CurveBuilder curve_;
  std::size_t steps_ = 0;
  double warmup_sum_ = 0, measured_sum_ = 0;
};

class BenchmarkCollector {
 public:
  explicit BenchmarkCollector(const MetricsLimits& limits) : limits_(limits) {}

  // `x`: the line's global iteration, when it has one. A rank's position that does not move
  // on is the log starting over (the trainer's own log appended to the stage log): its
  // steps were counted already. Lines with an epoch alone (PaddleDetection's) share theirs.
  void add(const log_fields::Position& position, std::optional<double> x, const std::vector<FigureValue>& values) {
    const int key = position.rank.value_or(-1);
    if (!ranks_.count(key) && ranks_.size() >= limits_.max_curves) return;  // garbage ranks
    RankFigures& figures = ranks_.try_emplace(key, position.rank).first->second;
    const bool has_step = position.iter || position.global_step;
    if (x && figures.last_x && (*x < *figures.last_x || (has_step && *x == *figures.last_x))) return;
    if (x) figures.last_x = x;
    for (const FigureValue& value : values) take(figures, value);
  }

  void finish(StageMetrics& metrics) &&;

 private:
  struct RankFigures {
    explicit RankFigures(std::optional<int> rank) : rank(rank) {}
    std::optional<int> rank;
    std::optional<double> last_x;
    std::array<std::optional<StepFigure>, kStepFigures> steps;  // by Figure
  };

  void take(RankFigures& rank, const FigureValue& value);

  MetricsLimits limits_;
  std::map<int, RankFigures> ranks_;  // -1 when lines name no rank
  std::string ips_unit_;
  std::optional<double> mem_reserved_, mem_allocated_;
};

}  // namespace tipc::report
