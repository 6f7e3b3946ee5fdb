#include "report/log_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <variant>
#include <vector>

namespace tipc::report {
// A named namespace, not an anonymous one: StageMetricsParser::State (declared in the header,
// so of external linkage) holds these readers, and GCC rejects a field of an anonymous
// namespace's type there in a unity build (-Wsubobject-linkage: the file is not the main file).
namespace log_metrics_readers {

// ---- fields: the `key: value` pieces of one line ----

struct Field {
  std::string_view key;
  std::string_view value;  // the value's first token, or the whole `[a/b]` group
};

struct Number {
  double value = 0;
  std::optional<double> total;  // the b of `a/b`
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Parentheses belong to keys for units: `preprocess_time(ms)`.
bool is_key_char(char c) { return is_letter(c) || is_digit(c) || c == '(' || c == ')'; }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// A key inside a path or a dotted name (`warnings.py:109`, `/a/b:3`) is no key.
bool is_inside_name(char c) { return c == '.' || c == '/' || c == '\\' || c == '-'; }

// The key that ends just before `end` (empty if none): a run of key characters starting
// with a letter, so the `11` of a `11:42:07` timestamp is no key.
std::string_view key_before(std::string_view line, std::size_t end) {
  std::size_t start = end;
  while (start > 0 && is_key_char(line[start - 1])) --start;
  if (start > 0 && is_inside_name(line[start - 1])) return {};
  while (start < end && !is_letter(line[start])) ++start;
  return line.substr(start, end - start);
}

std::string_view value_after(std::string_view line, std::size_t start) {
  while (start < line.size() && line[start] == ' ') ++start;
  if (start < line.size() && line[start] == '[') {
    const std::size_t close = line.find(']', start);
    return close == std::string_view::npos ? std::string_view() : line.substr(start, close + 1 - start);
  }
  std::size_t end = start;
  while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != ',' && line[end] != ';' &&
         line[end] != ']') {
    ++end;
  }
  return line.substr(start, end - start);
}

// `Key a/b` without a colon, as in `[Epoch 1/10]` and `rank 0/2`; `slash` is the `/`.
std::optional<Field> fraction_field(std::string_view line, std::size_t slash) {
  if (slash + 1 >= line.size() || !is_digit(line[slash + 1])) return std::nullopt;
  std::size_t start = slash;
  while (start > 0 && is_digit(line[start - 1])) --start;
  if (start == slash || start == 0 || line[start - 1] != ' ') return std::nullopt;
  std::size_t key_end = start;
  while (key_end > 0 && line[key_end - 1] == ' ') --key_end;
  const std::string_view key = key_before(line, key_end);
  if (key.empty()) return std::nullopt;
  std::size_t end = slash + 1;
  while (end < line.size() && is_digit(line[end])) ++end;
  return Field{key, line.substr(start, end - start)};
}

std::vector<Field> scan_fields(std::string_view line) {
  std::vector<Field> fields;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ':') {
      const std::string_view key = key_before(line, i);
      if (!key.empty()) fields.push_back({key, value_after(line, i + 1)});
    } else if (line[i] == '/') {
      if (auto field = fraction_field(line, i)) fields.push_back(*field);
    }
  }
  return fields;
}

std::optional<double> leading_number(std::string_view text, std::string_view* rest) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value)) return std::nullopt;
  *rest = text.substr(static_cast<std::size_t>(end - text.data()));
  return value;
}

// `0.5`, `0.5s`, `3/12`, `[1/10]`; not `11:42` (a time) and not `nan`.
std::optional<Number> number_of(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  std::string_view rest;
  const auto value = leading_number(text, &rest);
  if (!value || (!rest.empty() && rest.front() == ':')) return std::nullopt;
  Number number{*value, std::nullopt};
  if (!rest.empty() && rest.front() == '/') {
    std::string_view after_total;
    number.total = leading_number(rest.substr(1), &after_total);
    if (!number.total) return std::nullopt;
  }
  return number;
}

// A count or id: whole and in range (a garbage `rank 99999999999/2` is none).
std::optional<int> whole_number(double value) {
  const bool in_range = value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
  if (!in_range || value != std::floor(value)) return std::nullopt;
  return static_cast<int>(value);
}

// ---- train lines: position and metrics ----

struct Position {
  std::optional<double> global_step, iter, iters_per_epoch, epoch;
  std::optional<int> rank;
  bool empty() const { return !global_step && !iter && !epoch; }
};

// Throughput and timing fields are not training curves.
bool is_metric_key(const std::string& key) {
  static constexpr std::array<std::string_view, 5> kFragments = {"cost", "time", "mem", "samples", "elapse"};
  static constexpr std::array<std::string_view, 4> kNames = {"ips", "eta", "batch_size", "speed"};
  for (auto fragment : kFragments) {
    if (key.find(fragment) != std::string::npos) return false;
  }
  return std::find(kNames.begin(), kNames.end(), key) == kNames.end();
}

// Takes the positional fields into `position`; false for anything else.
bool take_position(const std::string& key, const Number& number, Position& position) {
  if (key == "global_step") {
    position.global_step = number.value;
  } else if (key == "iter" || key == "iteration" || key == "step") {
    position.iter = number.value;
    position.iters_per_epoch = number.total;
  } else if (key == "epoch") {
    position.epoch = number.value;
  } else if (key == "rank") {
    position.rank = whole_number(number.value);
  } else {
    return false;
  }
  return true;
}

// An evaluation inside a train log (`[Eval][Epoch 1][Iter: 0/10]`, `valid step:10`) is not
// a training point.
bool is_evaluation_line(const std::string& lowered) {
  return lowered.find("[eval") != std::string::npos || lowered.find("[valid") != std::string::npos ||
         lowered.find("valid step") != std::string::npos;
}

// The x of a rank's points. Iteration counters either restart every epoch (the demo,
// PaddleClas) or count on (PaddleSeg); a counter that went back when the epoch moved on
// restarted, so the epoch's length is added to an offset. An epoch that went back means
// the log starts over (TIPC appends the trainer's own log to the stage log), so the count
// starts over too and gives the same x again. A log with iterations also has per-epoch
// summaries (PaddleClas' `[Epoch 1/10][Avg]`); they have no x of their own.
class RankProgress {
 public:
  std::optional<double> global_iteration(const Position& position) {
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

// A curve under construction with bounded memory: it keeps every stride-th point and
// doubles the stride whenever twice the cap is reached, then thins evenly to the cap. Its
// x only grows: a log that starts over adds nothing until it passes the x reached.
class CurveBuilder {
 public:
  CurveBuilder(std::string name, std::size_t cap) : name_(std::move(name)), cap_(std::max<std::size_t>(cap, 2)) {}

  void add(CurvePoint point) {
    if (seen_ > 0 && point.step <= last_.step) return;
    if (seen_ % stride_ == 0) kept_.push_back(point);
    last_ = point;
    ++seen_;
    if (kept_.size() >= 2 * cap_) halve();
  }

  Curve finish() && {
    if ((seen_ - 1) % stride_ != 0) kept_.push_back(last_);
    return {std::move(name_), thin_evenly(std::move(kept_), cap_)};
  }

 private:
  void halve() {
    std::size_t out = 0;
    for (std::size_t i = 0; i < kept_.size(); i += 2) kept_[out++] = kept_[i];
    kept_.resize(out);
    stride_ *= 2;
  }

  static std::vector<CurvePoint> thin_evenly(std::vector<CurvePoint> points, std::size_t cap) {
    if (points.size() <= cap) return points;
    std::vector<CurvePoint> thinned;
    thinned.reserve(cap);
    const double step = static_cast<double>(points.size() - 1) / static_cast<double>(cap - 1);
    for (std::size_t i = 0; i < cap; ++i) {
      thinned.push_back(points[static_cast<std::size_t>(std::llround(static_cast<double>(i) * step))]);
    }
    return thinned;
  }

  std::string name_;
  std::size_t cap_;
  std::vector<CurvePoint> kept_;
  CurvePoint last_;
  std::size_t seen_ = 0, stride_ = 1;
};

// ---- benchmark figures: throughput, step costs and memory on train lines ----

enum class Figure { kIps, kBatchCost, kReaderCost, kMemReserved, kMemAllocated };
constexpr std::size_t kStepFigures = 3;  // ips, batch cost, reader cost: summarised per step
// The benchmark's analysis step (`analysis.py --skip_steps 2` in benchmark_train.sh) leaves
// out the first steps: they pay for warm-up, not for training.
constexpr std::size_t kWarmupSteps = 2;

// PaddleOCR writes `avg_batch_cost`, PaddleDetection `data_cost` for the reader's.
std::optional<Figure> figure_of(const std::string& key) {
  if (key == "ips" || key == "avg_ips") return Figure::kIps;
  if (key == "batch_cost" || key == "avg_batch_cost") return Figure::kBatchCost;
  if (key == "reader_cost" || key == "avg_reader_cost" || key == "data_cost") return Figure::kReaderCost;
  if (key == "max_mem_reserved") return Figure::kMemReserved;
  if (key == "max_mem_allocated") return Figure::kMemAllocated;
  return std::nullopt;
}

// The unit written after a value: glued to it (`0.28312s`) or the next word (`6.66 samples/s`,
// `3988 MB`). The next word may be the next field (`batch_cost: 0.5 data_cost: 0.01`); the
// callers accept only the units they know.
std::string_view unit_after(std::string_view line, std::string_view value) {
  std::string_view glued;
  if (leading_number(value, &glued) && !glued.empty()) return glued;
  std::size_t start = static_cast<std::size_t>(value.data() + value.size() - line.data());
  while (start < line.size() && line[start] == ' ') ++start;
  std::size_t end = start;
  while (end < line.size() && std::string_view(" \t,;|]").find(line[end]) == std::string_view::npos) ++end;
  return line.substr(start, end - start);
}

struct FigureValue {
  Figure figure = Figure::kIps;
  double value = 0;      // seconds for costs, MiB for memory
  std::string ips_unit;  // ips only: "samples/s", "images/sec", ...; "" when none is written
};

// Costs are seconds unless written in ms; memory MB unless written in GB or KB.
FigureValue figure_value(Figure figure, double value, std::string_view unit) {
  const std::string lowered = lower(unit);
  if (figure == Figure::kIps) return {figure, value, unit.find('/') != std::string_view::npos ? std::string(unit) : ""};
  if (figure == Figure::kBatchCost || figure == Figure::kReaderCost) return {figure, lowered == "ms" ? value / 1000 : value, ""};
  if (lowered == "gb" || lowered == "gib") return {figure, value * 1024, ""};
  if (lowered == "kb" || lowered == "kib") return {figure, value / 1024, ""};
  return {figure, value, ""};
}

double median_of(std::vector<double> values) {
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle))) / 2;
}

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

// The ranks' values together: ips is each rank's own throughput, as logged.
std::optional<FigureStats> pooled_stats(const std::vector<StepFigure::Summary>& ranks) {
  FigureStats stats;
  std::vector<double> values;
  double sum = 0;
  for (const auto& rank : ranks) {
    values.insert(values.end(), rank.values.begin(), rank.values.end());
    sum += rank.sum;
    stats.steps += rank.count;
  }
  if (values.empty() || stats.steps == 0) return std::nullopt;
  stats.mean = sum / static_cast<double>(stats.steps);
  stats.median = median_of(std::move(values));
  return stats;
}

class BenchmarkCollector {
 public:
  explicit BenchmarkCollector(const MetricsLimits& limits) : limits_(limits) {}

  // `x`: the line's global iteration, when it has one. A rank's position that does not move
  // on is the log starting over (the trainer's own log appended to the stage log): its
  // steps were counted already. Lines with an epoch alone (PaddleDetection's) share theirs.
  void add(const Position& position, std::optional<double> x, const std::vector<FigureValue>& values) {
    const int key = position.rank.value_or(-1);
    if (!ranks_.count(key) && ranks_.size() >= limits_.max_curves) return;  // garbage ranks
    RankFigures& figures = ranks_.try_emplace(key, position.rank).first->second;
    const bool has_step = position.iter || position.global_step;
    if (x && figures.last_x && (*x < *figures.last_x || (has_step && *x == *figures.last_x))) return;
    if (x) figures.last_x = x;
    for (const FigureValue& value : values) take(figures, value);
  }

  void finish(StageMetrics& metrics) && {
    if (ranks_.empty()) return;
    BenchmarkFigures figures;
    std::array<std::vector<StepFigure::Summary>, kStepFigures> summaries;
    for (auto& [key, rank] : ranks_) {
      for (std::size_t f = 0; f < kStepFigures; ++f) {
        if (rank.steps[f]) summaries[f].push_back(std::move(*rank.steps[f]).finish());
      }
    }
    for (const auto& ips : summaries[0]) {
      figures.skipped_steps += ips.skipped;
      figures.ips_curves.push_back(ips.curve);
    }
    figures.ips = pooled_stats(summaries[0]);
    figures.batch_cost_s = pooled_stats(summaries[1]);
    figures.reader_cost_s = pooled_stats(summaries[2]);
    figures.ips_unit = ips_unit_;
    figures.max_mem_reserved_mb = mem_reserved_, figures.max_mem_allocated_mb = mem_allocated_;
    metrics.benchmark = std::move(figures);
  }

 private:
  struct RankFigures {
    explicit RankFigures(std::optional<int> rank) : rank(rank) {}
    std::optional<int> rank;
    std::optional<double> last_x;
    std::array<std::optional<StepFigure>, kStepFigures> steps;  // by Figure
  };

  void take(RankFigures& rank, const FigureValue& value) {
    const auto index = static_cast<std::size_t>(value.figure);
    if (index < kStepFigures) {
      auto& step = rank.steps[index];
      static constexpr std::array<std::string_view, kStepFigures> kNames = {"ips", "batch_cost", "reader_cost"};
      if (!step) step.emplace(curve_name(kNames[index], rank.rank), limits_.max_points_per_curve);
      step->add(value.value);
      if (ips_unit_.empty()) ips_unit_ = value.ips_unit;  // "" for the costs
      return;
    }
    auto& largest = value.figure == Figure::kMemReserved ? mem_reserved_ : mem_allocated_;
    largest = std::max(largest.value_or(value.value), value.value);
  }

  MetricsLimits limits_;
  std::map<int, RankFigures> ranks_;  // -1 when lines name no rank
  std::string ips_unit_;
  std::optional<double> mem_reserved_, mem_allocated_;
};

class TrainCurves {
 public:
  explicit TrainCurves(const MetricsLimits& limits) : limits_(limits), figures_(limits) {}

  // Two ranks writing at once can leave two records on one line; a key seen again starts
  // the next record.
  void add_line(std::string_view line) {
    if (is_evaluation_line(lower(line))) return;
    Record record;
    for (const Field& field : scan_fields(line)) {
      const auto number = number_of(field.value);
      if (!number) continue;
      if (std::find(record.keys.begin(), record.keys.end(), field.key) != record.keys.end()) {
        add_record(record);
        record = Record();
      }
      record.keys.push_back(field.key);
      const std::string key = lower(field.key);
      if (const auto figure = figure_of(key)) {
        record.figures.push_back(figure_value(*figure, number->value, unit_after(line, field.value)));
      } else if (!take_position(key, *number, record.position) && is_metric_key(key)) {
        record.metrics.emplace_back(field.key, number->value);
      }
    }
    add_record(record);
  }

  void finish(StageMetrics& metrics) && {
    for (auto& builder : builders_) {
      Curve curve = std::move(builder).finish();
      metrics.final_values[curve.name] = curve.points.back().value;
      metrics.curves.push_back(std::move(curve));
    }
    std::move(figures_).finish(metrics);
  }

 private:
  struct Record {
    std::vector<std::string_view> keys;
    Position position;
    std::vector<std::pair<std::string_view, double>> metrics;
    std::vector<FigureValue> figures;
  };

  // Benchmark figures count on lines without a position too (a plain `ips: 12 samples/s`).
  void add_record(const Record& record) {
    if (record.metrics.empty() && record.figures.empty()) return;
    const Position& position = record.position;
    std::optional<double> x;
    if (!position.empty()) {
      const int rank = position.rank.value_or(-1);
      if (!progress_.count(rank) && progress_.size() >= limits_.max_curves) return;  // garbage ranks
      x = progress_[rank].global_iteration(position);
    }
    if (x) {
      for (const auto& [metric, value] : record.metrics) add_point(curve_name(metric, position.rank), {*x, value});
    }
    if (!record.figures.empty()) figures_.add(position, x, record.figures);
  }

  void add_point(const std::string& name, CurvePoint point) {
    auto found = index_.find(name);
    if (found == index_.end()) {
      if (builders_.size() >= limits_.max_curves) return;
      found = index_.emplace(name, builders_.size()).first;
      builders_.emplace_back(name, limits_.max_points_per_curve);
    }
    builders_[found->second].add(point);
  }

  MetricsLimits limits_;
  std::map<int, RankProgress> progress_;  // by rank; -1 when lines name none
  std::vector<CurveBuilder> builders_;    // in order of first appearance
  std::map<std::string, std::size_t> index_;
  BenchmarkCollector figures_;
};

// ---- eval logs: the last value of every metric ----

class EvalValues {
 public:
  explicit EvalValues(const MetricsLimits& limits) : limits_(limits) {}

  void add_line(std::string_view line) {
    Position ignored;
    for (const Field& field : scan_fields(line)) {
      const auto number = number_of(field.value);
      const std::string key = lower(field.key);
      if (!number || take_position(key, *number, ignored) || !is_metric_key(key)) continue;
      const std::string name(field.key);
      if (values_.size() < limits_.max_final_values || values_.count(name)) values_[name] = number->value;
    }
  }

  void finish(StageMetrics& metrics) && { metrics.final_values = std::move(values_); }

 private:
  MetricsLimits limits_;
  std::map<std::string, double> values_;
};

// ---- infer logs: AutoLog's summary (spec 5.1) ----

std::optional<std::string> text_value(std::string_view value) {
  if (value.empty() || value == "None") return std::nullopt;
  return std::string(value);
}

std::optional<int> int_value(std::string_view value) {
  const auto number = number_of(value);
  return number ? whole_number(number->value) : std::nullopt;
}

// `use_gpu: True` / `use_gpu: 1` names the device as `runtime_device` does.
std::string device_of_use_gpu(std::string_view value) {
  const std::string lowered = lower(value);
  return lowered == "true" || lowered == "1" ? "gpu" : "cpu";
}

// `total time spent(s): 0.3135` (Python) or `Total time spent(ms): 313` (C++): a key with
// spaces, which the field scanner does not take.
std::optional<double> total_time_spent_ms(std::string_view line) {
  static constexpr std::string_view kKey = "time spent(";
  const std::string lowered = lower(line);
  const std::size_t at = lowered.find(kKey);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t unit = at + kKey.size();
  const std::size_t colon = lowered.find("):", unit);
  if (colon == std::string::npos) return std::nullopt;
  const std::string_view unit_name = std::string_view(lowered).substr(unit, colon - unit);
  const auto number = number_of(value_after(line, colon + 2));
  if (!number || (unit_name != "s" && unit_name != "ms")) return std::nullopt;
  return unit_name == "s" ? number->value * 1000 : number->value;
}

class AutoLogTimings {
 public:
  void add_line(std::string_view line) {
    if (auto total = total_time_spent_ms(line)) {
      timings_.total_ms = total;
      found_ = true;
    }
    for (const Field& field : scan_fields(line)) take(lower(field.key), field.value);
  }

  void finish(StageMetrics& metrics) && {
    if (found_) metrics.timings = timings_;
  }

 private:
  void take(const std::string& key, std::string_view value) {
    if (auto* slot = number_slot(key)) {
      if (const auto number = number_of(value)) {
        *slot = number->value;
        found_ = true;
      }
    } else if (key == "batch_size") {
      timings_.batch_size = int_value(value);
    } else if (key == "data_num") {
      timings_.data_num = int_value(value);
    } else if (key == "precision") {
      timings_.precision = text_value(value);
    } else if (key == "runtime_device" || key == "device") {
      timings_.device = text_value(value);
    } else if (key == "use_gpu") {
      timings_.device = device_of_use_gpu(value);
    } else if (key == "cpu_math_library_num_threads" || key == "cpu_num_threads" || key == "cpu_threads") {
      timings_.cpu_threads = int_value(value);
    }
  }

  // `gpu_util: 3.0%` is a number with its sign glued; `None` is no number.
  std::optional<double>* number_slot(const std::string& key) {
    if (key == "preprocess_time(ms)") return &timings_.preprocess_ms;
    if (key == "inference_time(ms)") return &timings_.inference_ms;
    if (key == "postprocess_time(ms)") return &timings_.postprocess_ms;
    if (key == "cpu_rss(mb)") return &timings_.cpu_rss_mb;
    if (key == "gpu_rss(mb)") return &timings_.gpu_rss_mb;
    if (key == "gpu_util") return &timings_.gpu_util_percent;
    return nullptr;
  }

  InferenceTimings timings_;
  bool found_ = false;
};

// Ignores every line: stages without metrics (export, check, ...).
struct NoMetrics {
  void add_line(std::string_view) {}
  void finish(StageMetrics&) && {}
};

}  // namespace log_metrics_readers

struct StageMetricsParser::State {
  State(const std::string& kind, MetricsLimits limits) : limits(limits), reader(make_reader(kind, limits)) {}

  using Reader = std::variant<log_metrics_readers::TrainCurves, log_metrics_readers::EvalValues,
                              log_metrics_readers::AutoLogTimings, log_metrics_readers::NoMetrics>;
  static Reader make_reader(const std::string& kind, const MetricsLimits& limits) {
    if (kind == "train") return log_metrics_readers::TrainCurves(limits);
    if (kind == "eval") return log_metrics_readers::EvalValues(limits);
    if (kind == "infer") return log_metrics_readers::AutoLogTimings();
    return log_metrics_readers::NoMetrics();
  }

  void line_complete() {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::visit([this](auto& r) { r.add_line(line); }, reader);
    line.clear();
  }

  MetricsLimits limits;
  Reader reader;
  std::string line;  // the current line, at most limits.max_line bytes
};

StageMetricsParser::StageMetricsParser(std::string kind, MetricsLimits limits)
    : state_(std::make_unique<State>(kind, limits)) {}

StageMetricsParser::~StageMetricsParser() = default;

void StageMetricsParser::feed(std::string_view chunk) {
  State& s = *state_;
  while (!chunk.empty()) {
    const std::size_t newline = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, newline);
    const std::size_t room = s.limits.max_line - std::min(s.line.size(), s.limits.max_line);
    s.line.append(piece.substr(0, room));
    if (newline == std::string_view::npos) return;
    s.line_complete();
    chunk.remove_prefix(newline + 1);
  }
}

StageMetrics StageMetricsParser::finish() {
  State& s = *state_;
  if (!s.line.empty()) s.line_complete();
  StageMetrics metrics;
  std::visit([&metrics](auto& r) { std::move(r).finish(metrics); }, s.reader);
  return metrics;
}

StageMetrics parse_stage_metrics(const std::string& kind, const std::string& log_text) {
  StageMetricsParser parser(kind);
  parser.feed(log_text);
  return parser.finish();
}

StageMetrics parse_stage_metrics_file(const std::string& kind, const std::string& path) {
  StageMetricsParser parser(kind);
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(64 << 10);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    parser.feed(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  return parser.finish();
}

std::string curve_name(std::string_view metric, std::optional<int> rank) {
  return rank ? fmt::format("{} (rank {})", metric, *rank) : std::string(metric);
}

CurveNameParts split_curve_name(std::string_view name) {
  static constexpr std::string_view kMarker = " (rank ";
  const std::size_t at = name.rfind(kMarker);
  if (at == std::string_view::npos || name.back() != ')') return {std::string(name), std::nullopt};
  const std::string_view digits = name.substr(at + kMarker.size(), name.size() - 1 - at - kMarker.size());
  int rank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (error != std::errc() || end != digits.data() + digits.size()) return {std::string(name), std::nullopt};
  return {std::string(name.substr(0, at)), rank};
}

}  // namespace tipc::report
