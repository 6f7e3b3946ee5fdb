#include "report/json_report.h"

#include "run/outcome.h"

#include <nlohmann/json.hpp>

namespace tipc::report {
namespace {
using Json = nlohmann::ordered_json;

Json optional_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// Every result name, zeros included, so a reader never has to guess a missing key.
Json counts_json(const std::vector<const StageReport*>& stages) {
  Json counts = Json::object();
  for (const run::Status status : run::kAllStatuses) {
    const std::string name = run::to_string(status);
    counts[name] = std::count_if(stages.begin(), stages.end(), [&](const StageReport* s) { return s->result == name; });
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
  return {{"preprocess_ms", optional_json(t.preprocess_ms)}, {"inference_ms", optional_json(t.inference_ms)},
          {"postprocess_ms", optional_json(t.postprocess_ms)}, {"total_ms", optional_json(t.total_ms)},
          {"batch_size", optional_json(t.batch_size)},       {"precision", optional_json(t.precision)},
          {"device", optional_json(t.device)},               {"cpu_threads", optional_json(t.cpu_threads)}};
}

Json metrics_json(const StageMetrics& metrics) {
  Json curves = Json::array();
  for (const Curve& curve : metrics.curves) {
    Json points = Json::array();
    for (const CurvePoint& point : curve.points) points.push_back({point.step, point.value});
    curves.push_back({{"name", curve.name}, {"points", points}});
  }
  return {{"curves", curves},
          {"final_values", metrics.final_values},
          {"timings", metrics.timings ? timings_json(*metrics.timings) : Json(nullptr)}};
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
  return {{"kind", check.kind},         {"passed", check.passed}, {"values", values},
          {"histograms", histograms},   {"notes", check.notes},   {"compared_files", check.compared_files}};
}

Json stage_json(const StageReport& s) {
  return {{"id", s.id},
          {"kind", s.kind},
          {"result", s.result},
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
          {"resumed", s.resumed},
          {"log_findings", s.log_findings},
          {"metrics", metrics_json(s.metrics)},
          {"check", s.check ? check_json(*s.check) : Json(nullptr)},
          {"log_tail", s.log_tail}};
}

std::vector<const StageReport*> stages_of(const std::vector<PlanReport>& plans) {
  std::vector<const StageReport*> stages;
  for (const auto& plan : plans) {
    for (const auto& stage : plan.stages) stages.push_back(&stage);
  }
  return stages;
}

Json plan_json(const PlanReport& plan) {
  Json stages = Json::array();
  for (const auto& stage : plan.stages) stages.push_back(stage_json(stage));
  return {{"config", plan.config},         {"config_file", plan.config_file},
          {"mode", plan.mode},             {"model", plan.model},
          {"dialect", plan.dialect},       {"output_dir", plan.output_dir},
          {"counts", counts_json(stages_of({plan}))}, {"stages", stages}};
}

}  // namespace

std::string render_json_report(const RunReport& report) {
  Json plans = Json::array();
  for (const auto& plan : report.plans) plans.push_back(plan_json(plan));
  const bool timed = report.started && report.finished;
  const Json json = {{"schema", "tipc-run-report"},
                     {"schema_version", report.schema},
                     {"tool_version", report.tool_version},
                     {"verdict", verdict(report)},
                     {"exit_code", report.exit_code(false)},
                     {"started", optional_json(report.started)},
                     {"finished", optional_json(report.finished)},
                     {"seconds", timed ? Json(*report.finished - *report.started) : Json(nullptr)},
                     {"interrupted", report.interrupted},
                     {"resumed", report.resumed},
                     {"jobs", report.jobs},
                     {"gpus", report.gpus},
                     {"resources", report.resources_source},
                     {"repo_root", report.repo_root},
                     {"settings_file", report.settings_file},
                     {"counts", counts_json(stages_of(report.plans))},
                     {"plans", plans}};
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace tipc::report
