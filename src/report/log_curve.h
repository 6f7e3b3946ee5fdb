#pragma once
// A curve read from a log (train_log, benchmark_log): its name, one per metric and rank, and
// its points, built with bounded memory.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/run_report.h"

namespace tipc::report {

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

// A curve of one rank is named "loss (rank 1)"; without a rank just "loss".
std::string curve_name(std::string_view metric, std::optional<int> rank);

struct CurveNameParts {
  std::string metric;
  std::optional<int> rank;
};
CurveNameParts split_curve_name(std::string_view name);

}  // namespace tipc::report
