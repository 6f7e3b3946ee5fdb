#include "report/report_json_reader.h"

#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_field_reader.h"
#include "report/gpu_report.h"
#include "report/report_loader.h"

namespace tipc::report {
namespace {
using ReportJson = nlohmann::json;

Result<std::vector<Curve>> read_curves(const JsonFieldReader& fields, const char* key) {
  std::vector<Curve> curves;
  for (const JsonFieldReader& curve : TRY(fields.objects(key))) {
    using Points = std::vector<std::pair<double, double>>;
    Curve read;
    read.name = TRY(curve.optional<std::string>("name"));
    for (const auto& [step, value] : TRY(curve.optional<Points>("points"))) read.points.push_back({step, value});
    curves.push_back(std::move(read));
  }
  return curves;
}

Result<std::optional<FigureStats>> read_figure_stats(const JsonFieldReader& fields, const char* key) {
  const auto stats = TRY(fields.object(key));
  if (!stats) return std::nullopt;
  FigureStats read;
  read.median = TRY(stats->optional<double>("median"));
  read.mean = TRY(stats->optional<double>("mean"));
  read.steps = TRY(stats->optional<std::size_t>("steps"));
  return read;
}

Result<BenchmarkFigures> read_benchmark(const JsonFieldReader& fields) {
  BenchmarkFigures b;
  b.ips = TRY(read_figure_stats(fields, "ips"));
  b.ips_unit = TRY(fields.optional<std::string>("ips_unit"));
  b.batch_cost_s = TRY(read_figure_stats(fields, "batch_cost_s"));
  b.reader_cost_s = TRY(read_figure_stats(fields, "reader_cost_s"));
  b.max_mem_reserved_mb = TRY(fields.optional<std::optional<double>>("max_mem_reserved_mb"));
  b.max_mem_allocated_mb = TRY(fields.optional<std::optional<double>>("max_mem_allocated_mb"));
  b.skipped_steps = TRY(fields.optional<std::size_t>("skipped_steps"));
  b.ips_curves = TRY(read_curves(fields, "ips_curves"));
  return b;
}

Result<InferenceTimings> read_timings(const JsonFieldReader& fields) {
  InferenceTimings t;
  t.preprocess_ms = TRY(fields.optional<std::optional<double>>("preprocess_ms"));
  t.inference_ms = TRY(fields.optional<std::optional<double>>("inference_ms"));
  t.postprocess_ms = TRY(fields.optional<std::optional<double>>("postprocess_ms"));
  t.total_ms = TRY(fields.optional<std::optional<double>>("total_ms"));
  t.batch_size = TRY(fields.optional<std::optional<int>>("batch_size"));
  t.precision = TRY(fields.optional<std::optional<std::string>>("precision"));
  t.device = TRY(fields.optional<std::optional<std::string>>("device"));
  t.cpu_threads = TRY(fields.optional<std::optional<int>>("cpu_threads"));
  t.data_num = TRY(fields.optional<std::optional<int>>("data_num"));
  t.cpu_rss_mb = TRY(fields.optional<std::optional<double>>("cpu_rss_mb"));
  t.gpu_rss_mb = TRY(fields.optional<std::optional<double>>("gpu_rss_mb"));
  t.gpu_util_percent = TRY(fields.optional<std::optional<double>>("gpu_util_percent"));
  return t;
}

Result<StageMetrics> read_metrics(const JsonFieldReader& fields) {
  StageMetrics metrics;
  metrics.curves = TRY(read_curves(fields, "curves"));
  metrics.final_values = TRY((fields.optional<std::map<std::string, double>>("final_values")));
  if (const auto timings = TRY(fields.object("timings"))) metrics.timings = TRY(read_timings(*timings));
  if (const auto benchmark = TRY(fields.object("benchmark"))) metrics.benchmark = TRY(read_benchmark(*benchmark));
  return metrics;
}

Result<CheckDetails> read_check(const JsonFieldReader& fields) {
  CheckDetails check;
  check.kind = check_kind_from_string(TRY(fields.optional<std::string>("kind")));
  check.passed = TRY(fields.optional<bool>("passed"));
  for (const JsonFieldReader& value : TRY(fields.objects("values"))) {
    // (TRY outside braced initializers: GCC leaks the members built before an early return.)
    CheckValue read;
    read.label = TRY(value.optional<std::string>("label"));
    // A value that is not a number (NaN) is written as null, and reads back as NaN.
    read.value = TRY(value.optional<std::optional<double>>("value")).value_or(std::nan(""));
    read.limit = TRY(value.optional<std::optional<double>>("limit"));
    read.passed = TRY(value.optional<bool>("passed", true));
    check.values.push_back(std::move(read));
  }
  check.notes = TRY(fields.optional<std::vector<std::string>>("notes"));
  check.compared_files = TRY(fields.optional<std::vector<std::string>>("compared_files"));
  return check;
}

Result<run::Status> read_result(const JsonFieldReader& fields, const char* key) {
  const std::string word = TRY(fields.required<std::string>(key));
  const auto result = run::status_from_string(word);
  if (!result) return fail(fields.error(key, fmt::format("unknown result '{}'", word)));
  return *result;
}

Result<std::vector<AttemptReport>> read_attempts(const JsonFieldReader& fields) {
  std::vector<AttemptReport> attempts;
  for (const JsonFieldReader& a : TRY(fields.objects("attempts"))) {
    AttemptReport read;
    read.result = TRY(read_result(a, "result"));
    read.reason = TRY(a.optional<std::string>("reason"));
    read.started = TRY(a.optional<std::optional<double>>("started"));
    read.seconds = TRY(a.optional<std::optional<double>>("seconds"));
    read.exit_code = TRY(a.optional<std::optional<int>>("exit_code"));
    read.signal = TRY(a.optional<std::optional<int>>("signal"));
    read.log = TRY(a.optional<std::string>("log"));
    attempts.push_back(std::move(read));
  }
  return attempts;
}

Result<run::GpuFigures> read_gpu(const JsonFieldReader& fields) {
  run::GpuFigures gpu;
  gpu.samples = TRY(fields.optional<int>("samples"));
  for (const GpuFigureField& field : kGpuFigureFields) {
    gpu.*field.value = TRY(fields.optional<std::optional<double>>(field.key));
  }
  gpu.throttle_reasons = TRY(fields.optional<std::vector<std::string>>("throttle_reasons"));
  return gpu;
}

Result<StageReport> read_stage(const JsonFieldReader& fields) {
  StageReport stage;
  stage.id = TRY(fields.required<std::string>("id"));
  const std::string kind = TRY(fields.required<std::string>("kind"));
  const auto known_kind = plan::stage_kind_from_string(kind);
  if (!known_kind) return fail(fields.error("kind", fmt::format("unknown stage kind '{}'", kind)));
  stage.kind = *known_kind;
  stage.result = TRY(read_result(fields, "result"));
  stage.reason = TRY(fields.optional<std::string>("reason"));
  stage.log = TRY(fields.optional<std::string>("log"));
  stage.deps = TRY(fields.optional<std::vector<std::string>>("deps"));
  stage.exit_code = TRY(fields.optional<std::optional<int>>("exit_code"));
  stage.signal = TRY(fields.optional<std::optional<int>>("signal"));
  stage.started = TRY(fields.optional<std::optional<double>>("started"));
  stage.seconds = TRY(fields.optional<std::optional<double>>("seconds"));
  stage.resumed = TRY(fields.optional<bool>("resumed"));
  if (const auto earlier = TRY(fields.object("earlier_run"))) {
    EarlierRun& run = stage.earlier_run.emplace();
    run.id = TRY(earlier->optional<std::string>("run_id"));
    run.started = TRY(earlier->optional<std::optional<double>>("started"));
    run.same_command = TRY(earlier->optional<bool>("same_command", true));
  }
  // Not in report.json: a stage the last run left out, with no earlier result, says so in its reason.
  stage.selected = stage.earlier_run || stage.reason != kNotSelectedReason;
  stage.log_findings = TRY(fields.optional<std::vector<std::string>>("log_findings"));
  stage.attempts = TRY(read_attempts(fields));
  if (const auto metrics = TRY(fields.object("metrics"))) stage.metrics = TRY(read_metrics(*metrics));
  if (const auto check = TRY(fields.object("check"))) stage.check = TRY(read_check(*check));
  stage.error_line = TRY(fields.optional<std::string>("error_line"));
  if (const auto gpu = TRY(fields.object("gpu"))) stage.gpu = TRY(read_gpu(*gpu));
  stage.gpu_warnings = TRY(fields.optional<std::vector<std::string>>("gpu_warnings"));
  return stage;
}

Result<PlanReport> read_plan(const JsonFieldReader& fields) {
  PlanReport plan;
  plan.config = TRY(fields.required<std::string>("config"));
  plan.config_file = TRY(fields.optional<std::string>("config_file"));
  plan.mode = TRY(fields.required<std::string>("mode"));
  plan.model = TRY(fields.optional<std::string>("model"));
  plan.dialect = TRY(fields.optional<std::string>("dialect"));
  plan.dialect_source = TRY(fields.optional<std::string>("dialect_source"));
  plan.output_dir = TRY(fields.optional<std::string>("output_dir"));
  for (const JsonFieldReader& stage : TRY(fields.objects("stages"))) plan.stages.push_back(TRY(read_stage(stage)));
  return plan;
}

Result<void> check_schema(const JsonFieldReader& fields, RunReport& run) {
  if (TRY(fields.optional<std::string>("schema")) != "tipc-run-report") {
    return fail(fields.error("schema", "not \"tipc-run-report\": not a report.json of tipc-run"));
  }
  const int version = TRY(fields.required<int>("schema_version"));
  if (version > run.schema) {
    return fail(fields.error("schema_version", fmt::format("{}: a report of a newer tipc-run (this one reads up to {})",
                                                           version, run.schema)));
  }
  return {};
}

Result<RunReport> read_run(const JsonFieldReader& fields) {
  RunReport run;
  TRY(check_schema(fields, run));
  run.tool_version = TRY(fields.optional<std::string>("tool_version"));
  run.started = TRY(fields.optional<std::optional<double>>("started"));
  run.finished = TRY(fields.optional<std::optional<double>>("finished"));
  run.interrupted = TRY(fields.optional<bool>("interrupted"));
  run.resumed = TRY(fields.optional<bool>("resumed"));
  run.jobs = TRY(fields.optional<int>("jobs", 1));
  run.gpus = TRY(fields.optional<std::vector<std::string>>("gpus"));
  run.resources_source = TRY(fields.optional<std::string>("resources"));
  run.repo_root = TRY(fields.optional<std::string>("repo_root"));
  run.settings_file = TRY(fields.optional<std::string>("settings_file"));
  for (const JsonFieldReader& p : TRY(fields.objects("invalid_configs"))) {
    ConfigProblem& problem = run.invalid_configs.emplace_back();
    problem.file = TRY(p.optional<std::string>("file"));
    problem.line = TRY(p.optional<int>("line"));
    problem.key = TRY(p.optional<std::string>("key"));
    problem.message = TRY(p.optional<std::string>("message"));
  }
  run.excluded_configs = TRY(fields.optional<std::vector<std::string>>("excluded_configs"));
  for (const JsonFieldReader& c : TRY(fields.objects("configs_in_other_modes"))) {
    plan::ConfigInOtherModes& config = run.configs_in_other_modes.emplace_back();
    config.file = TRY(c.optional<std::string>("file"));
    config.chain = TRY(c.optional<std::string>("chain"));
    config.modes = TRY(c.optional<std::vector<std::string>>("modes"));
  }
  if (const auto environment = TRY(fields.object("environment")))
    run.environment = environment_from_json(environment->json());
  if (const auto baseline = TRY(fields.object("baseline"))) run.baseline = TRY(read_baseline(*baseline));
  for (const JsonFieldReader& plan : TRY(fields.objects("plans"))) run.plans.push_back(TRY(read_plan(plan)));
  return run;
}

}  // namespace

Result<RunReport> read_report_json(std::string_view text, const std::string& file) {
  const ReportJson json = ReportJson::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return fail(Error::at(file, 0, "", "not a JSON object: not a report.json of tipc-run"));
  }
  return read_run(JsonFieldReader(json, file));
}

}  // namespace tipc::report
