#include "report/train_log.h"

#include <algorithm>

#include "core/text.h"

namespace tipc::report {
namespace {

// An evaluation inside a train log (`[Eval][Epoch 1][Iter: 0/10]`, `valid step:10`) is not
// a training point.
bool is_evaluation_line(const std::string& lowered) {
  return lowered.find("[eval") != std::string::npos || lowered.find("[valid") != std::string::npos ||
         lowered.find("valid step") != std::string::npos;
}

}  // namespace

void TrainCurves::add_line(std::string_view line) {
  if (is_evaluation_line(lower(line))) return;
  Record record;
  for (const log_fields::Field& field : log_fields::scan_fields(line)) {
    const auto number = log_fields::number_of(field.value);
    if (!number) continue;
    if (std::find(record.keys.begin(), record.keys.end(), field.key) != record.keys.end()) {
      add_record(record);
      record = Record();
    }
    record.keys.push_back(field.key);
    const std::string key = lower(field.key);
    if (const auto figure = figure_of(key)) {
      record.figures.push_back(figure_value(*figure, number->value, unit_after(line, field.value)));
    } else if (!log_fields::take_position(key, *number, record.position) && log_fields::is_metric_key(key)) {
      record.metrics.emplace_back(field.key, number->value);
    }
  }
  add_record(record);
}

void TrainCurves::add_record(const Record& record) {
  if (record.metrics.empty() && record.figures.empty()) return;
  const log_fields::Position& position = record.position;
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

void TrainCurves::add_point(const std::string& name, CurvePoint point) {
  auto found = index_.find(name);
  if (found == index_.end()) {
    if (builders_.size() >= limits_.max_curves) return;
    found = index_.emplace(name, builders_.size()).first;
    builders_.emplace_back(name, limits_.max_points_per_curve);
  }
  builders_[found->second].add(point);
}

void TrainCurves::finish(StageMetrics& metrics) && {
  for (auto& builder : builders_) {
    Curve curve = std::move(builder).finish();
    metrics.final_values[curve.name] = curve.points.back().value;
    metrics.curves.push_back(std::move(curve));
  }
  std::move(figures_).finish(metrics);
}

}  // namespace tipc::report
