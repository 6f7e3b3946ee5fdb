#include "report/report_loader.h"

#include <cerrno>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "plan/plan_json.h"
#include "report/check_details.h"
#include "report/console_reporter.h"
#include "report/error_line.h"
#include "report/log_metrics.h"
#include "run/journal.h"

namespace tipc::report {
namespace {
namespace fs = std::filesystem;
using JsonValue = nlohmann::json;  // read only: no ordered_json, whose order is for writing

const char* const kNotStarted = "not started (the run ended before it)";
const char* const kNotSelected = "not selected (--only or -k), and no earlier run has a result";

struct PlanFile {
  std::string path;
  JsonValue json;
};

// A field that is absent, null or of another type reads as nullopt: the journal is read
// back whatever an older or crashed writer left.
template <class T>
std::optional<T> optional_field(const JsonValue& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  try {
    return it->get<T>();
  } catch (const JsonValue::exception&) {
    return std::nullopt;
  }
}

Result<PlanFile> read_plan_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(Error::at(path, 0, "", "cannot read the plan file: " + errno_text(errno)));
  JsonValue json = JsonValue::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("stages")) {
    return fail(Error::at(path, 0, "", "not a tipc-run plan file"));
  }
  if (const int schema = optional_field<int>(json, "schema").value_or(0); schema > run::kStateSchema) {
    return fail(Error::at(path, 0, "schema", fmt::format("written by a newer tipc-run (schema {})", schema)));
  }
  return PlanFile{path, std::move(json)};
}

Result<std::vector<PlanFile>> read_plan_files(const std::vector<std::string>& paths) {
  std::vector<PlanFile> plans;
  for (const auto& path : paths) {
    plans.push_back(TRY(read_plan_file(path)));
  }
  return plans;
}

// A plan's journal, merged by stage: each stage's last line, this run's or an earlier one's.
struct PlanJournal {
  std::string run_id;                     // the run that wrote the plan file
  std::optional<JsonValue> started, finished;  // its run lines
  std::map<std::string, JsonValue> entries;    // stage id -> its last line
};

bool is_stage_line(const JsonValue& line) {
  return optional_field<std::string>(line, "stage") && optional_field<std::string>(line, "result");
}

PlanJournal read_plan_journal(const PlanFile& plan) {
  auto lines = run::read_journal((fs::path(plan.path).parent_path() / run::kJournalFileName).string());
  PlanJournal journal;
  journal.run_id = optional_field<std::string>(plan.json, "run_id").value_or("");
  for (JsonValue& line : lines) {
    const auto run = optional_field<std::string>(line, "run");
    if (is_stage_line(line)) {
      const auto id = line["stage"].get<std::string>();
      journal.entries[id] = std::move(line);  // the last line wins
    } else if (run && optional_field<std::string>(line, "run_id").value_or("") == journal.run_id) {
      (*run == "started" ? journal.started : journal.finished) = std::move(line);
    }
  }
  return journal;
}

// A path under the output directory the plan file names, moved to where the plan file is
// now (a CI artifact unpacked elsewhere).
std::string relocated(const std::string& path, const std::string& recorded_dir, const std::string& actual_dir) {
  if (recorded_dir.empty() || recorded_dir == actual_dir || !path.starts_with(recorded_dir + "/")) return path;
  return actual_dir + path.substr(recorded_dir.size());
}

// A kind the plan file names that this tipc-run does not know: the file is damaged or newer.
plan::StageKind stage_kind(const JsonValue& stage) {
  const std::string text = stage.at("kind").get<std::string>();
  const auto kind = plan::stage_kind_from_string(text);
  if (!kind) throw JsonValue::other_error::create(501, fmt::format("unknown stage kind '{}'", text), &stage);
  return *kind;
}

// The output directory the plan file names, and the one it is in now.
std::string output_dir_of(const PlanFile& plan) { return optional_field<std::string>(plan.json, "output_dir").value_or(""); }
std::string plan_dir_of(const PlanFile& plan) { return fs::path(plan.path).parent_path().string(); }

StageReport stage_from_plan(const JsonValue& stage) {
  StageReport report;
  report.id = stage.at("id").get<std::string>();
  report.kind = stage_kind(stage);
  report.argv = stage.at("argv").get<std::vector<std::string>>();
  for (const auto& [name, value] : stage.at("env").items()) {
    report.env[name] = value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
  }
  report.cwd = stage.at("cwd").get<std::string>();
  report.log = stage.at("log").get<std::string>();
  report.deps = stage.at("deps").get<std::vector<std::string>>();
  report.gpus_needed = stage.at("needs").at("gpus").get<int>();
  report.reason = kNotStarted;
  return report;
}

// Set when the entry is an earlier run's: when that run was, and whether the command was the same.
std::optional<EarlierRun> earlier_run(const JsonValue& entry, const JsonValue& stage, const PlanJournal& journal) {
  const std::string run_id = optional_field<std::string>(entry, "run_id").value_or("");
  if (!journal.run_id.empty() && run_id == journal.run_id) return std::nullopt;
  return EarlierRun{run_id, optional_field<double>(entry, "run_started"),
                    optional_field<std::string>(entry, "fingerprint") == optional_field<std::string>(stage, "fingerprint")};
}

// The tries --retries ran before the last one; their logs moved like the stage's.
std::vector<AttemptReport> attempts_of(const JsonValue& entry, const PlanFile& plan) {
  std::vector<AttemptReport> attempts;
  for (const JsonValue& item : optional_field<JsonValue>(entry, "attempts").value_or(JsonValue::array())) {
    if (!item.is_object()) continue;
    AttemptReport attempt;
    attempt.result = run::status_from_string(optional_field<std::string>(item, "result").value_or(""))
                         .value_or(run::Status::kUnresolved);
    attempt.reason = optional_field<std::string>(item, "reason").value_or("");
    attempt.started = optional_field<double>(item, "started");
    attempt.seconds = optional_field<double>(item, "seconds");
    attempt.exit_code = optional_field<int>(item, "exit_code");
    attempt.signal = optional_field<int>(item, "signal");
    attempt.log = relocated(optional_field<std::string>(item, "log").value_or(""), output_dir_of(plan), plan_dir_of(plan));
    attempt.log_tail = log_tail(attempt.log, kLogTailLines);
    attempts.push_back(std::move(attempt));
  }
  return attempts;
}

void apply_entry(StageReport& stage, const JsonValue& entry, bool resumed) {
  const std::string result = entry["result"].get<std::string>();
  const auto status = run::status_from_string(result);
  stage.result = status.value_or(run::Status::kUnresolved);
  stage.reason = optional_field<std::string>(entry, "reason").value_or("");
  // A journal line of a newer or damaged writer: a failure the report shows, never a pass.
  if (!status) stage.reason = fmt::format("the journal records an unknown result '{}'", result);
  stage.exit_code = optional_field<int>(entry, "exit_code");
  stage.signal = optional_field<int>(entry, "signal");
  stage.started = optional_field<double>(entry, "started");
  if (stage.started) stage.seconds = optional_field<double>(entry, "seconds");
  stage.gpus = optional_field<std::vector<std::string>>(entry, "gpus").value_or(std::vector<std::string>{});
  stage.log_findings = optional_field<std::vector<std::string>>(entry, "log_findings").value_or(std::vector<std::string>{});
  stage.job_id = optional_field<std::string>(entry, "job_id").value_or("");
  stage.resumed = resumed;
}

// The check a check stage's plan entry describes, read from its result file (moved like
// the log when the output directory was).
void add_check(StageReport& report, const JsonValue& stage, const PlanFile& plan) {
  if (!report.started) return;
  const auto spec = plan::check_spec_from_json(stage, plan.path);
  if (!spec) {
    report.check = unreadable_check(std::nullopt, spec.error().str());  // which check is what it could not say
    return;
  }
  if (!*spec) return;
  const std::string path = relocated(check_result_path(**spec, report.cwd), output_dir_of(plan), plan_dir_of(plan));
  report.check = read_check_file((*spec)->kind, path, report.cwd, *report.started);
}

bool selected(const PlanFile& plan, const std::string& id) {
  const auto ids = optional_field<std::vector<std::string>>(plan.json, "selected");
  return !ids || std::find(ids->begin(), ids->end(), id) != ids->end();
}

StageReport stage_report(const PlanFile& plan, const JsonValue& stage, const PlanJournal& journal) {
  StageReport report = stage_from_plan(stage);
  report.log = relocated(report.log, output_dir_of(plan), plan_dir_of(plan));
  report.selected = selected(plan, report.id);
  if (!report.selected) report.reason = kNotSelected;
  if (const auto it = journal.entries.find(report.id); it != journal.entries.end()) {
    report.earlier_run = earlier_run(it->second, stage, journal);
    // --resume skips a stage whose last result is a PASS of the same command.
    const bool resumed_run = journal.started && optional_field<bool>(*journal.started, "resumed").value_or(false);
    if (report.earlier_run && !report.earlier_run->same_command) {
      // A result of another command says nothing about this one.
      report.result = run::Status::kSkipped;
      report.reason = fmt::format("not run since its command changed (its last result was {})",
                                  optional_field<std::string>(it->second, "result").value_or("?"));
    } else {
      const auto result = run::status_from_string(it->second["result"].get<std::string>());
      apply_entry(report, it->second, resumed_run && report.earlier_run && result && run::is_passed(*result));
      report.attempts = attempts_of(it->second, plan);
    }
  }
  add_check(report, stage, plan);
  if (report.started) report.metrics = parse_stage_metrics_file(report.kind, report.log);
  if (report.started && !run::is_passed(report.result)) {
    report.log_tail = log_tail(report.log, kLogTailLines);
    report.error_line = first_error_line_of_file(report.log);
  }
  return report;
}

// Each stage's JSON tree is freed once its report is made: the trees of a 1000-stage plan
// take about 3 MB, as much as the reports made from them.
PlanReport plan_report(PlanFile& plan, const PlanJournal& journal) {
  JsonValue& json = plan.json;
  PlanReport report;
  report.config = json.at("config").get<std::string>();
  report.config_file = optional_field<std::string>(json, "config_file").value_or("");
  report.mode = json.at("mode").get<std::string>();
  report.model = optional_field<std::string>(json, "model").value_or("");
  report.dialect = optional_field<std::string>(json, "dialect").value_or("");
  report.dialect_source = optional_field<std::string>(json, "dialect_source").value_or("");
  report.output_dir = fs::path(plan.path).parent_path().string();
  for (JsonValue& stage : json.at("stages")) {
    report.stages.push_back(stage_report(plan, stage, journal));
    stage = nullptr;
  }
  return report;
}

// The configs the runs left out: every plan file of a run lists its run's, so each run's are
// taken once (a tree holds the plans of several runs when configs were run one by one into it).
std::vector<ConfigProblem> invalid_configs(const std::vector<PlanFile>& plans) {
  std::vector<ConfigProblem> problems;
  std::set<std::string> runs;
  for (const PlanFile& plan : plans) {
    if (!runs.insert(optional_field<std::string>(plan.json, "run_id").value_or("")).second) continue;
    for (const JsonValue& item : optional_field<JsonValue>(plan.json, "invalid_configs").value_or(JsonValue::array())) {
      if (!item.is_object()) continue;
      ConfigProblem problem{optional_field<std::string>(item, "file").value_or(""),
                            optional_field<int>(item, "line").value_or(0),
                            optional_field<std::string>(item, "key").value_or(""),
                            optional_field<std::string>(item, "message").value_or("")};
      // The shards of one suite each list its invalid configs: a merged report lists them once.
      const auto same = [&](const ConfigProblem& p) {
        return p.file == problem.file && p.line == problem.line && p.key == problem.key && p.message == problem.message;
      };
      if (std::none_of(problems.begin(), problems.end(), same)) problems.push_back(std::move(problem));
    }
  }
  return problems;
}

// What the run was given, from the first plan's files.
void set_run_metadata(RunReport& run, const PlanFile& plan, const PlanJournal& journal) {
  run.tool_version = optional_field<std::string>(plan.json, "tool_version").value_or("");
  run.repo_root = optional_field<std::string>(plan.json, "repo_root").value_or("");
  run.settings_file = optional_field<std::string>(plan.json, "settings_file").value_or("");
  if (!journal.started) return;
  run.jobs = optional_field<int>(*journal.started, "jobs").value_or(1);
  run.gpus = optional_field<std::vector<std::string>>(*journal.started, "gpus").value_or(std::vector<std::string>{});
  run.resources_source = optional_field<std::string>(*journal.started, "resources").value_or("");
  run.resumed = optional_field<bool>(*journal.started, "resumed").value_or(false);
}

// Over every plan: the earliest start, the latest finish. One plan without a "run
// finished" line makes the run cut short: interrupted, with no finish time.
void set_run_times(RunReport& run, const std::vector<PlanFile>& plans, const std::vector<PlanJournal>& journals) {
  bool cut_short = false;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const auto started = optional_field<double>(plans[i].json, "started");
    if (started && !(run.started && *run.started <= *started)) run.started = started;
    const std::optional<JsonValue>& finish_line = journals[i].finished;
    const auto finished = finish_line ? optional_field<double>(*finish_line, "finished") : std::nullopt;
    cut_short = cut_short || !finished;
    if (finished && !(run.finished && *run.finished >= *finished)) run.finished = finished;
    if (finish_line && optional_field<bool>(*finish_line, "interrupted").value_or(false)) run.interrupted = true;
  }
  if (cut_short) {
    run.interrupted = true;
    run.finished.reset();
  }
}

// Takes the plan files: each plan's stages (plan_report) and journal lines are dropped once
// its report holds them.
Result<RunReport> report_from_plans(std::vector<PlanFile> plans) {
  RunReport run;
  std::vector<PlanJournal> journals;
  for (auto& plan : plans) {
    try {
      journals.push_back(read_plan_journal(plan));
      if (run.plans.empty()) set_run_metadata(run, plan, journals.back());
      run.plans.push_back(plan_report(plan, journals.back()));
      journals.back().entries.clear();
    } catch (const JsonValue::exception& e) {
      return fail(Error::at(plan.path, 0, "", fmt::format("not a tipc-run plan file: {}", e.what())));
    }
  }
  set_run_times(run, plans, journals);
  if (!plans.empty()) run.environment = read_environment_file(plan_dir_of(plans.front()));
  run.invalid_configs = invalid_configs(plans);
  return run;
}

std::vector<std::string> find_plan_files(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; it != end;
       it.increment(ec)) {
    if (it->path().filename() == run::kPlanFileName && it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The plan files at or under a run's directory; an error when there is none.
Result<std::vector<std::string>> plan_files_under(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(Error::at(dir, 0, "", "not a directory"));
  // Absolute, as the paths of the model are (a relative DIR would make every log path relative).
  auto files = find_plan_files(fs::absolute(dir, ec).lexically_normal());
  if (files.empty()) {
    return fail(Error::at(dir, 0, "", fmt::format("no {} at or under this directory: not the output of a tipc-run run",
                                                  run::kPlanFileName)));
  }
  return files;
}

// Two plan files of one config in one mode would report its stages twice.
Result<void> check_each_plan_once(const std::vector<PlanFile>& plans) {
  std::map<std::pair<std::string, std::string>, std::string> seen;  // (config, mode) -> plan file
  for (const PlanFile& plan : plans) {
    const auto key = std::pair{optional_field<std::string>(plan.json, "config").value_or(""),
                               optional_field<std::string>(plan.json, "mode").value_or("")};
    const auto [it, fresh] = seen.emplace(key, plan.path);
    if (!fresh) {
      return fail(Error::at(plan.path, 0, "config",
                            fmt::format("{} in mode {} is also in {}: a merged report takes each config once",
                                        key.first, key.second, it->second)));
    }
  }
  return {};
}

}  // namespace

Result<RunReport> load_run_report_files(const std::vector<std::string>& plan_files) {
  return report_from_plans(TRY(read_plan_files(plan_files)));
}

Result<RunReport> load_run_report(const std::string& dir) {
  return report_from_plans(TRY(read_plan_files(TRY(plan_files_under(dir)))));
}

Result<RunReport> load_merged_report(const std::vector<std::string>& dirs) {
  std::vector<std::string> files;
  for (const std::string& dir : dirs) {
    const auto found = TRY(plan_files_under(dir));
    files.insert(files.end(), found.begin(), found.end());
  }
  auto plans = TRY(read_plan_files(files));
  TRY(check_each_plan_once(plans));
  return report_from_plans(std::move(plans));
}

}  // namespace tipc::report
