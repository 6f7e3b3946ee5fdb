#include "report/json_report.h"

#include "core/json_file.h"
#include "report/gpu_report.h"
#include "run/outcome.h"

#include <sstream>

#include <nlohmann/json.hpp>

namespace tipc::report {
namespace {
using Json = nlohmann::ordered_json;

constexpr std::size_t kFlushBytes = 64u << 10;

Json optional_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// Every result name, zeros included, so a reader never has to guess a missing key.
Json counts_json(const std::vector<const StageReport*>& stages) {
  Json counts = Json::object();
  for (const run::Status status : run::kAllStatuses) {
    counts[run::to_string(status)] =
        std::count_if(stages.begin(), stages.end(), [&](const StageReport* s) { return s->result == status; });
  }
  counts["total"] = stages.size();
  return counts;
}

Json env_json(const std::map<std::string, std::optional<std::string>>& env) {
  Json json = Json::object();
  for (const auto& [name, value] : env) json[name] = optional_json(value);
  return json;
}

Json timings_json(const InferenceTimings& t) {
  return {{"preprocess_ms", optional_json(t.preprocess_ms)},
          {"inference_ms", optional_json(t.inference_ms)},
          {"postprocess_ms", optional_json(t.postprocess_ms)},
          {"total_ms", optional_json(t.total_ms)},
          {"batch_size", optional_json(t.batch_size)},
          {"precision", optional_json(t.precision)},
          {"device", optional_json(t.device)},
          {"cpu_threads", optional_json(t.cpu_threads)},
          {"data_num", optional_json(t.data_num)},
          {"cpu_rss_mb", optional_json(t.cpu_rss_mb)},
          {"gpu_rss_mb", optional_json(t.gpu_rss_mb)},
          {"gpu_util_percent", optional_json(t.gpu_util_percent)}};
}

Json curves_json(const std::vector<Curve>& curves) {
  Json json = Json::array();
  for (const Curve& curve : curves) {
    Json points = Json::array();
    for (const CurvePoint& point : curve.points) points.push_back({point.step, point.value});
    json.push_back({{"name", curve.name}, {"points", points}});
  }
  return json;
}

Json figure_json(const std::optional<FigureStats>& stats) {
  if (!stats) return nullptr;
  return {{"median", stats->median}, {"mean", stats->mean}, {"steps", stats->steps}};
}

Json benchmark_json(const BenchmarkFigures& b) {
  return {{"ips", figure_json(b.ips)},
          {"ips_unit", b.ips_unit},
          {"batch_cost_s", figure_json(b.batch_cost_s)},
          {"reader_cost_s", figure_json(b.reader_cost_s)},
          {"max_mem_reserved_mb", optional_json(b.max_mem_reserved_mb)},
          {"max_mem_allocated_mb", optional_json(b.max_mem_allocated_mb)},
          {"skipped_steps", b.skipped_steps},
          {"ips_curves", curves_json(b.ips_curves)}};
}

Json metrics_json(const StageMetrics& metrics) {
  return {{"curves", curves_json(metrics.curves)},
          {"final_values", metrics.final_values},
          {"timings", metrics.timings ? timings_json(*metrics.timings) : Json(nullptr)},
          {"benchmark", metrics.benchmark ? benchmark_json(*metrics.benchmark) : Json(nullptr)}};
}

Json check_json(const CheckDetails& check) {
  Json values = Json::array();
  for (const CheckValue& v : check.values) {
    values.push_back({{"label", v.label}, {"value", v.value}, {"limit", optional_json(v.limit)}, {"passed", v.passed}});
  }
  Json histograms = Json::array();
  for (const HistogramPair& h : check.histograms) {
    histograms.push_back({{"key", h.key}, {"edges", h.edges}, {"reference", h.reference}, {"candidate", h.candidate}});
  }
  return {{"kind", check_kind_word(check)}, {"passed", check.passed}, {"values", values},
          {"histograms", histograms},       {"notes", check.notes},   {"compared_files", check.compared_files}};
}

Json earlier_run_json(const std::optional<EarlierRun>& run) {
  if (!run) return nullptr;
  return {{"run_id", run->id}, {"started", optional_json(run->started)}, {"same_command", run->same_command}};
}

// The tries --retries ran before the last one (the stage's own fields are the last one's).
Json attempts_json(const std::vector<AttemptReport>& attempts) {
  Json list = Json::array();
  for (const AttemptReport& a : attempts) {
    list.push_back({{"result", run::to_string(a.result)},
                    {"reason", a.reason},
                    {"started", optional_json(a.started)},
                    {"seconds", optional_json(a.seconds)},
                    {"exit_code", optional_json(a.exit_code)},
                    {"signal", optional_json(a.signal)},
                    {"log", a.log}});
  }
  return list;
}

// docs/report-schema.md, "gpu": the journal's keys; a figure the driver did not give is absent.
Json gpu_json(const run::GpuFigures& figures) {
  Json json = {{"samples", figures.samples}};
  for (const GpuFigureField& field : kGpuFigureFields) {
    if (const std::optional<double>& value = figures.*field.value) json[field.key] = *value;
  }
  if (!figures.throttle_reasons.empty()) json["throttle_reasons"] = figures.throttle_reasons;
  return json;
}

Json gpu_devices_json(const std::vector<run::Gpu>& gpus) {
  Json list = Json::array();
  for (const run::Gpu& gpu : gpus) {
    list.push_back({{"id", gpu.id}, {"index", optional_json(gpu.index)}, {"name", gpu.name}, {"uuid", gpu.uuid}});
  }
  return list;
}

// What only some stages have is absent from the others: the GPU figures, GPU warnings, a TIMEOUT's stack.
void add_optional_stage_fields(Json& json, const StageReport& s) {
  if (!s.gpu.empty()) json["gpu"] = gpu_json(s.gpu);
  if (!s.gpu_warnings.empty()) json["gpu_warnings"] = s.gpu_warnings;
  if (!s.stack.empty()) json["stack"] = s.stack;
}

// The fields every stage has.
Json stage_fields(const StageReport& s) {
  return {{"id", s.id},
          {"kind", plan::to_string(s.kind)},
          {"result", run::to_string(s.result)},
          {"reason", s.reason},
          {"argv", s.argv},
          {"env", env_json(s.env)},
          {"cwd", s.cwd},
          {"log", s.log},
          {"deps", s.deps},
          {"gpus_needed", s.gpus_needed},
          {"exit_code", optional_json(s.exit_code)},
          {"signal", optional_json(s.signal)},
          {"started", optional_json(s.started)},
          {"seconds", optional_json(s.seconds)},
          {"gpus", s.gpus},
          {"job_id", s.job_id.empty() ? Json(nullptr) : Json(s.job_id)},
          {"nodes", s.nodes.empty() ? Json(nullptr) : Json(s.nodes)},
          {"resumed", s.resumed},
          {"earlier_run", earlier_run_json(s.earlier_run)},
          {"log_findings", s.log_findings},
          {"attempts", attempts_json(s.attempts)},
          {"metrics", metrics_json(s.metrics)},
          {"check", s.check ? check_json(*s.check) : Json(nullptr)},
          {"log_tail", s.log_tail},
          {"error_line", s.error_line}};
}

Json stage_json(const StageReport& s) {
  Json json = stage_fields(s);
  add_optional_stage_fields(json, s);
  return json;
}

std::vector<const StageReport*> stages_of(const PlanReport& plan) {
  std::vector<const StageReport*> stages;
  for (const auto& stage : plan.stages) stages.push_back(&stage);
  return stages;
}

std::vector<const StageReport*> stages_of(const std::vector<PlanReport>& plans) {
  std::vector<const StageReport*> stages;
  for (const auto& plan : plans) {
    const auto of_plan = stages_of(plan);
    stages.insert(stages.end(), of_plan.begin(), of_plan.end());
  }
  return stages;
}

// A plan without its stages ("stages" last and empty): they are written one at a time.
Json plan_head_json(const PlanReport& plan) {
  const run::RunVerdict verdict = plan_verdict(plan);
  return {{"config", plan.config},
          {"config_file", plan.config_file},
          {"mode", plan.mode},
          {"verdict", verdict.word()},
          {"headline", verdict.headline()},
          {"model", plan.model},
          {"dialect", plan.dialect},
          {"dialect_source", plan.dialect_source},
          {"output_dir", plan.output_dir},
          {"counts", counts_json(stages_of(plan))},
          {"stages", Json::array()}};
}

Json configs_in_other_modes_json(const std::vector<plan::ConfigInOtherModes>& configs) {
  Json list = Json::array();
  for (const auto& c : configs) list.push_back({{"file", c.file}, {"chain", c.chain}, {"modes", c.modes}});
  return list;
}

Json invalid_configs_json(const std::vector<ConfigProblem>& problems) {
  Json list = Json::array();
  for (const auto& p : problems)
    list.push_back({{"file", p.file}, {"line", p.line}, {"key", p.key}, {"message", p.message}});
  return list;
}

}  // namespace

void write_json_report(const RunReport& report, std::ostream& sink) {
  const bool timed = report.started && report.finished;
  const run::RunVerdict verdict = report.verdict();
  const Json head = {{"schema", "tipc-run-report"},
                     {"schema_version", report.schema},
                     {"tool_version", report.tool_version},
                     {"verdict", verdict.word()},
                     {"headline", verdict.headline()},
                     {"explanation", verdict.explanation()},
                     {"could_not_run", verdict.could_not_run},
                     {"exit_code", report.exit_code({})},
                     {"started", optional_json(report.started)},
                     {"finished", optional_json(report.finished)},
                     {"seconds", timed ? Json(*report.finished - *report.started) : Json(nullptr)},
                     {"interrupted", report.interrupted},
                     {"resumed", report.resumed},
                     {"jobs", report.jobs},
                     {"gpus", report.gpus},
                     {"resources", report.resources_source},
                     {"gpu_devices", gpu_devices_json(report.gpu_devices)},
                     {"repo_root", report.repo_root},
                     {"settings_file", report.settings_file},
                     {"counts", counts_json(stages_of(report.plans))},
                     {"invalid_configs", invalid_configs_json(report.invalid_configs)},
                     {"excluded_configs", report.excluded_configs},
                     {"configs_in_other_modes", configs_in_other_modes_json(report.configs_in_other_modes)},
                     {"environment", report.environment ? environment_json(*report.environment) : Json(nullptr)},
                     {"baseline", report.baseline ? Json(baseline_json(*report.baseline)) : Json(nullptr)},
                     {"plans", Json::array()}};
  std::string out;
  append_streamed(out, head, 0, report.plans.size(), [&](std::string& text, std::size_t p, int depth) {
    const PlanReport& plan = report.plans[p];
    append_streamed(text, plan_head_json(plan), depth, plan.stages.size(),
                    [&](std::string& inner, std::size_t s, int stage_depth) {
                      append_nested(inner, stage_json(plan.stages[s]), stage_depth);
                      // Every level appends to this one string: what is written is never read back.
                      if (inner.size() >= kFlushBytes) {
                        sink << inner;
                        inner.clear();
                      }
                    });
  });
  out += '\n';
  sink << out;
}

std::string render_json_report(const RunReport& report) {
  std::ostringstream out;
  write_json_report(report, out);
  return std::move(out).str();
}

}  // namespace tipc::report
