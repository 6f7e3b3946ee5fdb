#include "report/report_json_reader.h"

#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/report_loader.h"

namespace tipc::report {
namespace {
using ReportJson = nlohmann::json;

template <class T>
inline constexpr bool is_optional_field = false;
template <class T>
inline constexpr bool is_optional_field<std::optional<T>> = true;

// The fields of one object of report.json; errors name the file and the field's place
// ("plans[0].stages[2].result").
class ReportFields {
 public:
  ReportFields(const ReportJson& object, const std::string& file, std::string where)
      : object_(object), file_(file), where_(std::move(where)) {}

  // Absent or null: `fallback` (an optional's is nullopt).
  template <class T>
  Result<T> get(const char* key, T fallback = {}) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return fallback;
    try {
      if constexpr (is_optional_field<T>) {
        return T(it->get<typename T::value_type>());
      } else {
        return it->get<T>();
      }
    } catch (const ReportJson::exception&) {
      return fail(error(key, fmt::format("not a {}", json_type_word<T>())));
    }
  }
  template <class T>
  Result<T> required(const char* key) const {
    if (!object_.contains(key) || object_.at(key).is_null()) return fail(error(key, "missing"));
    return get<T>(key);
  }
  // A nested object; nullopt when absent or null.
  Result<std::optional<ReportFields>> object(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    if (!it->is_object()) return fail(error(key, "not an object"));
    return ReportFields(*it, file_, place(key));
  }
  // An array of objects; empty when absent or null.
  Result<std::vector<ReportFields>> objects(const char* key) const {
    std::vector<ReportFields> out;
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return out;
    if (!it->is_array()) return fail(error(key, "not an array"));
    for (std::size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_object()) return fail(error(fmt::format("{}[{}]", key, i), "not an object"));
      out.emplace_back((*it)[i], file_, fmt::format("{}[{}]", place(key), i));
    }
    return out;
  }
  const ReportJson& json() const { return object_; }
  Error error(const std::string& key, const std::string& what) const {
    return Error::at(file_, 0, place(key), fmt::format("field '{}': {}", place(key), what));
  }

 private:
  std::string place(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }
  template <class T>
  static const char* json_type_word() {
    if constexpr (is_optional_field<T>) {
      return json_type_word<typename T::value_type>();
    } else if constexpr (std::is_same_v<T, std::string>) {
      return "string";
    } else if constexpr (std::is_same_v<T, bool>) {
      return "boolean";
    } else if constexpr (std::is_arithmetic_v<T>) {
      return "number";
    } else {
      return "value of the expected type";
    }
  }

  const ReportJson& object_;
  const std::string& file_;
  std::string where_;
};

Result<std::vector<Curve>> read_curves(const ReportFields& fields, const char* key) {
  std::vector<Curve> curves;
  for (const ReportFields& curve : TRY(fields.objects(key))) {
    using Points = std::vector<std::pair<double, double>>;
    Curve read;
    read.name = TRY(curve.get<std::string>("name"));
    for (const auto& [step, value] : TRY(curve.get<Points>("points"))) read.points.push_back({step, value});
    curves.push_back(std::move(read));
  }
  return curves;
}

Result<std::optional<FigureStats>> read_figure_stats(const ReportFields& fields, const char* key) {
  const auto stats = TRY(fields.object(key));
  if (!stats) return std::nullopt;
  FigureStats read;
  read.median = TRY(stats->get<double>("median"));
  read.mean = TRY(stats->get<double>("mean"));
  read.steps = TRY(stats->get<std::size_t>("steps"));
  return read;
}

Result<BenchmarkFigures> read_benchmark(const ReportFields& fields) {
  BenchmarkFigures b;
  b.ips = TRY(read_figure_stats(fields, "ips"));
  b.ips_unit = TRY(fields.get<std::string>("ips_unit"));
  b.batch_cost_s = TRY(read_figure_stats(fields, "batch_cost_s"));
  b.reader_cost_s = TRY(read_figure_stats(fields, "reader_cost_s"));
  b.max_mem_reserved_mb = TRY(fields.get<std::optional<double>>("max_mem_reserved_mb"));
  b.max_mem_allocated_mb = TRY(fields.get<std::optional<double>>("max_mem_allocated_mb"));
  b.skipped_steps = TRY(fields.get<std::size_t>("skipped_steps"));
  b.ips_curves = TRY(read_curves(fields, "ips_curves"));
  return b;
}

Result<InferenceTimings> read_timings(const ReportFields& fields) {
  InferenceTimings t;
  t.preprocess_ms = TRY(fields.get<std::optional<double>>("preprocess_ms"));
  t.inference_ms = TRY(fields.get<std::optional<double>>("inference_ms"));
  t.postprocess_ms = TRY(fields.get<std::optional<double>>("postprocess_ms"));
  t.total_ms = TRY(fields.get<std::optional<double>>("total_ms"));
  t.batch_size = TRY(fields.get<std::optional<int>>("batch_size"));
  t.precision = TRY(fields.get<std::optional<std::string>>("precision"));
  t.device = TRY(fields.get<std::optional<std::string>>("device"));
  t.cpu_threads = TRY(fields.get<std::optional<int>>("cpu_threads"));
  t.data_num = TRY(fields.get<std::optional<int>>("data_num"));
  t.cpu_rss_mb = TRY(fields.get<std::optional<double>>("cpu_rss_mb"));
  t.gpu_rss_mb = TRY(fields.get<std::optional<double>>("gpu_rss_mb"));
  t.gpu_util_percent = TRY(fields.get<std::optional<double>>("gpu_util_percent"));
  return t;
}

Result<StageMetrics> read_metrics(const ReportFields& fields) {
  StageMetrics metrics;
  metrics.curves = TRY(read_curves(fields, "curves"));
  metrics.final_values = TRY((fields.get<std::map<std::string, double>>("final_values")));
  if (const auto timings = TRY(fields.object("timings"))) metrics.timings = TRY(read_timings(*timings));
  if (const auto benchmark = TRY(fields.object("benchmark"))) metrics.benchmark = TRY(read_benchmark(*benchmark));
  return metrics;
}

Result<CheckDetails> read_check(const ReportFields& fields) {
  CheckDetails check;
  check.kind = check_kind_from_string(TRY(fields.get<std::string>("kind")));
  check.passed = TRY(fields.get<bool>("passed"));
  for (const ReportFields& value : TRY(fields.objects("values"))) {
    // (TRY outside braced initializers: GCC leaks the members built before an early return.)
    CheckValue read;
    read.label = TRY(value.get<std::string>("label"));
    // A value that is not a number (NaN) is written as null, and reads back as NaN.
    read.value = TRY(value.get<std::optional<double>>("value")).value_or(std::nan(""));
    read.limit = TRY(value.get<std::optional<double>>("limit"));
    read.passed = TRY(value.get<bool>("passed", true));
    check.values.push_back(std::move(read));
  }
  check.notes = TRY(fields.get<std::vector<std::string>>("notes"));
  check.compared_files = TRY(fields.get<std::vector<std::string>>("compared_files"));
  return check;
}

Result<run::Status> read_result(const ReportFields& fields, const char* key) {
  const std::string word = TRY(fields.required<std::string>(key));
  const auto result = run::status_from_string(word);
  if (!result) return fail(fields.error(key, fmt::format("unknown result '{}'", word)));
  return *result;
}

Result<std::vector<AttemptReport>> read_attempts(const ReportFields& fields) {
  std::vector<AttemptReport> attempts;
  for (const ReportFields& a : TRY(fields.objects("attempts"))) {
    AttemptReport read;
    read.result = TRY(read_result(a, "result"));
    read.reason = TRY(a.get<std::string>("reason"));
    read.started = TRY(a.get<std::optional<double>>("started"));
    read.seconds = TRY(a.get<std::optional<double>>("seconds"));
    read.exit_code = TRY(a.get<std::optional<int>>("exit_code"));
    read.signal = TRY(a.get<std::optional<int>>("signal"));
    read.log = TRY(a.get<std::string>("log"));
    attempts.push_back(std::move(read));
  }
  return attempts;
}

Result<StageReport> read_stage(const ReportFields& fields) {
  StageReport stage;
  stage.id = TRY(fields.required<std::string>("id"));
  const std::string kind = TRY(fields.required<std::string>("kind"));
  const auto known_kind = plan::stage_kind_from_string(kind);
  if (!known_kind) return fail(fields.error("kind", fmt::format("unknown stage kind '{}'", kind)));
  stage.kind = *known_kind;
  stage.result = TRY(read_result(fields, "result"));
  stage.reason = TRY(fields.get<std::string>("reason"));
  stage.log = TRY(fields.get<std::string>("log"));
  stage.deps = TRY(fields.get<std::vector<std::string>>("deps"));
  stage.exit_code = TRY(fields.get<std::optional<int>>("exit_code"));
  stage.signal = TRY(fields.get<std::optional<int>>("signal"));
  stage.started = TRY(fields.get<std::optional<double>>("started"));
  stage.seconds = TRY(fields.get<std::optional<double>>("seconds"));
  stage.resumed = TRY(fields.get<bool>("resumed"));
  if (const auto earlier = TRY(fields.object("earlier_run"))) {
    EarlierRun& run = stage.earlier_run.emplace();
    run.id = TRY(earlier->get<std::string>("run_id"));
    run.started = TRY(earlier->get<std::optional<double>>("started"));
    run.same_command = TRY(earlier->get<bool>("same_command", true));
  }
  // Not in report.json: a stage the last run left out, with no earlier result, says so in its reason.
  stage.selected = stage.earlier_run || stage.reason != kNotSelectedReason;
  stage.log_findings = TRY(fields.get<std::vector<std::string>>("log_findings"));
  stage.attempts = TRY(read_attempts(fields));
  if (const auto metrics = TRY(fields.object("metrics"))) stage.metrics = TRY(read_metrics(*metrics));
  if (const auto check = TRY(fields.object("check"))) stage.check = TRY(read_check(*check));
  stage.error_line = TRY(fields.get<std::string>("error_line"));
  return stage;
}

Result<PlanReport> read_plan(const ReportFields& fields) {
  PlanReport plan;
  plan.config = TRY(fields.required<std::string>("config"));
  plan.config_file = TRY(fields.get<std::string>("config_file"));
  plan.mode = TRY(fields.required<std::string>("mode"));
  plan.model = TRY(fields.get<std::string>("model"));
  plan.dialect = TRY(fields.get<std::string>("dialect"));
  plan.dialect_source = TRY(fields.get<std::string>("dialect_source"));
  plan.output_dir = TRY(fields.get<std::string>("output_dir"));
  for (const ReportFields& stage : TRY(fields.objects("stages"))) plan.stages.push_back(TRY(read_stage(stage)));
  return plan;
}

Result<void> check_schema(const ReportFields& fields, RunReport& run) {
  if (TRY(fields.get<std::string>("schema")) != "tipc-run-report") {
    return fail(fields.error("schema", "not \"tipc-run-report\": not a report.json of tipc-run"));
  }
  const int version = TRY(fields.required<int>("schema_version"));
  if (version > run.schema) {
    return fail(fields.error("schema_version", fmt::format("{}: a report of a newer tipc-run (this one reads up to {})",
                                                           version, run.schema)));
  }
  return {};
}

Result<RunReport> read_run(const ReportFields& fields) {
  RunReport run;
  TRY(check_schema(fields, run));
  run.tool_version = TRY(fields.get<std::string>("tool_version"));
  run.started = TRY(fields.get<std::optional<double>>("started"));
  run.finished = TRY(fields.get<std::optional<double>>("finished"));
  run.interrupted = TRY(fields.get<bool>("interrupted"));
  run.resumed = TRY(fields.get<bool>("resumed"));
  run.jobs = TRY(fields.get<int>("jobs", 1));
  run.gpus = TRY(fields.get<std::vector<std::string>>("gpus"));
  run.resources_source = TRY(fields.get<std::string>("resources"));
  run.repo_root = TRY(fields.get<std::string>("repo_root"));
  run.settings_file = TRY(fields.get<std::string>("settings_file"));
  for (const ReportFields& p : TRY(fields.objects("invalid_configs"))) {
    ConfigProblem& problem = run.invalid_configs.emplace_back();
    problem.file = TRY(p.get<std::string>("file"));
    problem.line = TRY(p.get<int>("line"));
    problem.key = TRY(p.get<std::string>("key"));
    problem.message = TRY(p.get<std::string>("message"));
  }
  if (const auto environment = TRY(fields.object("environment"))) run.environment = environment_from_json(environment->json());
  for (const ReportFields& plan : TRY(fields.objects("plans"))) run.plans.push_back(TRY(read_plan(plan)));
  return run;
}

}  // namespace

Result<RunReport> read_report_json(std::string_view text, const std::string& file) {
  const ReportJson json = ReportJson::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return fail(Error::at(file, 0, "", "not a JSON object: not a report.json of tipc-run"));
  }
  return read_run(ReportFields(json, file, ""));
}

}  // namespace tipc::report
