#include "report/benchmark_record.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/text.h"
#include "report/log_curve.h"
#include "report/log_fields.h"

namespace tipc::report {

namespace {

using Json = nlohmann::ordered_json;

std::optional<int> integer_of(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The last value of the loss curve of the lowest rank (a log without ranks has just "loss").
std::optional<double> last_loss(const std::vector<Curve>& curves) {
  const Curve* chosen = nullptr;
  std::optional<int> chosen_rank;
  for (const Curve& curve : curves) {
    const CurveNameParts parts = split_curve_name(curve.name);
    if (parts.metric != "loss" || curve.points.empty()) continue;
    if (!chosen || (chosen_rank && (!parts.rank || *parts.rank < *chosen_rank))) {
      chosen = &curve;
      chosen_rank = parts.rank;
    }
  }
  if (!chosen) return std::nullopt;
  return chosen->points.back().value;
}

// Paddle's runners take the installed wheel's version without its build tag (2.6.1.post120: 2.6.1).
std::optional<std::string> release_of(std::optional<std::string> version) {
  if (version) version = version->substr(0, version->find(".post"));
  return version;
}

Json null_or_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// The run's facts; the framework is Paddle's when the interpreter has it, else torch's (the demo's).
RecordFacts record_facts(const RunReport& report) {
  std::filesystem::path root = std::filesystem::path(report.repo_root).lexically_normal();
  if (!root.has_filename()) root = root.parent_path();  // "/repo/"
  RecordFacts facts{root.filename().string(), "", std::nullopt, std::nullopt};
  if (!report.environment) return facts;
  facts.repository = report.environment->repository;
  if (!report.environment->interpreter) return facts;
  const auto& frameworks = report.environment->interpreter->frameworks;
  for (const char* framework : {"paddle", "torch"}) {
    if (const auto it = frameworks.find(framework); it != frameworks.end()) {
      facts.frame_version = it->second;
      break;
    }
  }
  return facts;
}

}  // namespace

std::string fp_item_of(const std::string& autocast) {
  static const std::set<std::string, std::less<>> kHalf = {"amp", "fp16", "o1", "o2", "true", "pure_fp16"};
  const std::string word = lower(autocast);
  if (kHalf.contains(word)) return "fp16";
  if (word.find("bf16") != std::string::npos) return "bf16";
  return "fp32";
}

std::string device_num_of(int gpus_per_node, int nodes) {
  const int node_count = std::max(nodes, 1);
  return fmt::format("N{}C{}", node_count, std::max(gpus_per_node, 1) * node_count);
}

std::optional<BenchmarkRecord> benchmark_record(const StageReport& stage, const RecordFacts& facts) {
  if (stage.kind != plan::StageKind::kTrain || !stage.started) return std::nullopt;
  BenchmarkRecord record;
  if (facts.repository) {
    record.model_branch = facts.repository->branch;
    record.model_commit = facts.repository->commit;
  }
  const plan::TrainSetting setting = stage.train_setting.value_or(plan::TrainSetting{});
  record.batch_text = setting.batch_size;
  record.batch_size = integer_of(setting.batch_size);
  record.fp_item = fp_item_of(setting.autocast);
  record.model_name = fmt::format("{}_bs{}_{}_{}", facts.model, record.batch_text, record.fp_item, record.run_mode);
  const int cards = std::max(stage.gpus_needed, 1) * std::max(stage.nodes_needed, 1);
  record.run_process_type = cards == 1 ? "SingleP" : "MultiP";
  record.device_num = device_num_of(stage.gpus_needed, stage.nodes_needed);
  record.convergence_value = last_loss(stage.metrics.curves);
  const auto& figures = stage.metrics.benchmark;
  // The log's ips is one card's (each rank logs its own): all cards make `cards` times as many.
  if (figures && figures->ips) record.ips = std::round(figures->ips->mean * cards * 1000) / 1000;
  record.speed_unit = figures && !figures->ips_unit.empty() ? figures->ips_unit : "samples/s";
  if (stage.seconds) record.model_run_time = std::llround(*stage.seconds);
  record.frame_version = release_of(facts.frame_version);
  return record;
}

std::string render_benchmark_record(const BenchmarkRecord& record) {
  // Paddle's script writes the loss as the text it found and 0 when it found none.
  const Json convergence = record.convergence_value ? Json(fmt::format("{}", *record.convergence_value)) : Json(0);
  const Json json = {
      {"model_branch", null_or_json(record.model_branch)},
      {"model_commit", null_or_json(record.model_commit)},
      {"model_name", record.model_name},
      {"batch_size", record.batch_size ? Json(*record.batch_size) : Json(record.batch_text)},
      {"fp_item", record.fp_item},
      {"run_process_type", record.run_process_type},
      {"run_mode", record.run_mode},
      {"convergence_value", convergence},
      {"convergence_key", kConvergenceKey},
      {"ips", record.ips},
      {"speed_unit", record.speed_unit},
      {"device_num", record.device_num},
      {"model_run_time", record.model_run_time ? Json(std::to_string(*record.model_run_time)) : Json(nullptr)},
      {"frame_commit", null_or_json(record.frame_commit)},
      {"frame_version", null_or_json(record.frame_version)},
  };
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string benchmark_record_file_name(const BenchmarkRecord& record, const std::string& repo_name) {
  return fmt::format("{}_{}_{}_speed", repo_name, record.model_name, record.device_num);
}

Result<std::vector<std::string>> write_benchmark_records(const RunReport& report) {
  RecordFacts facts = record_facts(report);
  std::vector<std::string> written;
  for (const PlanReport& plan : report.plans) {
    if (plan.mode != "benchmark_train") continue;
    facts.model = plan.model;
    std::map<std::string, int> uses;
    for (const StageReport& stage : plan.stages) {
      const auto record = benchmark_record(stage, facts);
      if (!record) continue;
      std::string name = benchmark_record_file_name(*record, facts.repo_name);
      if (const int use = ++uses[name]; use > 1)
        name.insert(name.size() - 6, fmt::format("_{}", use));  // before "_speed"
      const std::string path = (std::filesystem::path(plan.output_dir) / kBenchmarkRecordDir / name).string();
      TRY(write_file_atomically(path, render_benchmark_record(*record)));
      written.push_back(path);
    }
  }
  return written;
}

}  // namespace tipc::report
