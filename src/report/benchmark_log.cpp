#include "report/benchmark_log.h"

#include <algorithm>

#include "core/text.h"
#include "stats/change.h"

namespace tipc::report {
namespace {

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
  stats.median = stats::median(std::move(values));
  return stats;
}

}  // namespace

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
  if (log_fields::leading_number(value, &glued) && !glued.empty()) return glued;
  std::size_t start = static_cast<std::size_t>(value.data() + value.size() - line.data());
  while (start < line.size() && line[start] == ' ') ++start;
  std::size_t end = start;
  while (end < line.size() && std::string_view(" \t,;|]").find(line[end]) == std::string_view::npos) ++end;
  return line.substr(start, end - start);
}

// Costs are seconds unless written in ms; memory MB unless written in GB or KB.
FigureValue figure_value(Figure figure, double value, std::string_view unit) {
  const std::string lowered = lower(unit);
  if (figure == Figure::kIps) return {figure, value, unit.find('/') != std::string_view::npos ? std::string(unit) : ""};
  if (figure == Figure::kBatchCost || figure == Figure::kReaderCost)
    return {figure, lowered == "ms" ? value / 1000 : value, ""};
  if (lowered == "gb" || lowered == "gib") return {figure, value * 1024, ""};
  if (lowered == "kb" || lowered == "kib") return {figure, value / 1024, ""};
  return {figure, value, ""};
}

void BenchmarkCollector::finish(StageMetrics& metrics) && {
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

void BenchmarkCollector::take(RankFigures& rank, const FigureValue& value) {
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

}  // namespace tipc::report
