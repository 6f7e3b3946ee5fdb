#include "report/log_metrics.h"

#include <algorithm>
#include <fstream>
#include <variant>
#include <vector>

#include "report/autolog.h"
#include "report/eval_log.h"
#include "report/train_log.h"

namespace tipc::report {
// Not in an anonymous namespace: State (declared in the header, so of external linkage) holds
// the readers, and GCC rejects a field of an anonymous namespace's type there in a unity build
// (-Wsubobject-linkage: the file is not the main file).
struct StageMetricsParser::State {
  // Ignores every line: stages without metrics (export, check, ...).
  struct NoMetrics {
    void add_line(std::string_view) {}
    void finish(StageMetrics&) && {}
  };

  State(StageKind kind, MetricsLimits limits) : limits(limits), reader(make_reader(kind, limits)) {}

  using Reader = std::variant<TrainCurves, EvalValues, AutoLogTimings, NoMetrics>;
  static Reader make_reader(StageKind kind, const MetricsLimits& limits) {
    switch (kind) {
      case StageKind::kTrain: return TrainCurves(limits);
      case StageKind::kEval: return EvalValues(limits);
      case StageKind::kInfer: return AutoLogTimings();
      default: return NoMetrics();
    }
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

StageMetricsParser::StageMetricsParser(StageKind kind, MetricsLimits limits)
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

StageMetrics parse_stage_metrics(StageKind kind, const std::string& log_text) {
  StageMetricsParser parser(kind);
  parser.feed(log_text);
  return parser.finish();
}

StageMetrics parse_stage_metrics_file(StageKind kind, const std::string& path) {
  StageMetricsParser parser(kind);
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(64 << 10);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    parser.feed(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  return parser.finish();
}

}  // namespace tipc::report
