#include "report/report_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "plan/plan_file_record.h"
#include "report/check_details.h"
#include "report/console_reporter.h"
#include "report/error_line.h"
#include "report/log_metrics.h"
#include "report/stack_dump.h"
#include "run/journal_record.h"

namespace tipc::report {
namespace {
namespace fs = std::filesystem;

const char* const kNotStarted = "not started (the run ended before it)";

struct PlanFile {
  std::string path;
  plan::PlanFileRecord record;
};

Result<std::vector<PlanFile>> read_plan_files(const std::vector<std::string>& paths) {
  std::vector<PlanFile> plans;
  for (const auto& path : paths) {
    // TRY outside the braces: GCC does not destroy the members a braced initializer has
    // built when a statement expression in it returns early (LeakSanitizer finds the path).
    plan::PlanFileRecord record = TRY(plan::read_plan_file(path));
    plans.push_back({path, std::move(record)});
  }
  return plans;
}

// A plan's journal, and the run lines of the run that wrote the plan file.
struct PlanJournal {
  run::Journal journal;
  std::optional<run::RunStartedLine> started;
  std::optional<run::RunFinishedLine> finished;
};

Result<PlanJournal> read_plan_journal(const PlanFile& plan) {
  PlanJournal read{
      TRY(run::Journal::load((fs::path(plan.path).parent_path() / run::kJournalFileName).string())), {}, {}};
  if (const auto* line = read.journal.run_started(plan.record.run_id)) read.started = *line;
  if (const auto* line = read.journal.run_finished(plan.record.run_id)) read.finished = *line;
  return read;
}

// A path under the output directory the plan file names, moved to where the plan file is
// now (a CI artifact unpacked elsewhere).
std::string relocated(const std::string& path, const PlanFile& plan) {
  const std::string& recorded_dir = plan.record.output_dir;
  const std::string actual_dir = fs::path(plan.path).parent_path().string();
  if (recorded_dir.empty() || recorded_dir == actual_dir || !path.starts_with(recorded_dir + "/")) return path;
  return actual_dir + path.substr(recorded_dir.size());
}

StageReport stage_from_plan(const plan::Stage& stage, const PlanFile& plan) {
  StageReport report;
  report.id = stage.id;
  report.kind = stage.kind;
  report.argv = stage.argv;
  report.env = stage.env;
  report.cwd = stage.cwd;
  report.log = relocated(stage.log, plan);
  report.deps = stage.deps;
  report.gpus_needed = stage.needs.gpus;
  report.nodes_needed = stage.needs.nodes;
  report.train_setting = stage.train_setting;
  report.reason = kNotStarted;
  return report;
}

// Set when the entry is an earlier run's: when that run was, and whether the command was the same.
std::optional<EarlierRun> earlier_run(const run::JournalEntry& entry, const plan::PlanFileStage& stage,
                                      const PlanFile& plan) {
  if (!plan.record.run_id.empty() && entry.run_id == plan.record.run_id) return std::nullopt;
  return EarlierRun{entry.run_id, entry.run_started, entry.same_command(stage.fingerprint)};
}

// The tries --retries ran before the last one; their logs moved like the stage's.
std::vector<AttemptReport> attempts_of(const run::JournalEntry& entry, const PlanFile& plan) {
  std::vector<AttemptReport> attempts;
  for (const run::AttemptEntry& item : entry.attempts) {
    AttemptReport attempt{
        item.result, item.reason, item.started, item.seconds, item.exit_code, item.signal, relocated(item.log, plan),
        ""};
    attempt.log_tail = log_tail(attempt.log, kLogTailLines);
    attempts.push_back(std::move(attempt));
  }
  return attempts;
}

void apply_entry(StageReport& stage, const run::JournalEntry& entry, bool resumed) {
  stage.result = entry.result;
  stage.reason = entry.reason;
  stage.exit_code = entry.exit_code;
  stage.signal = entry.signal;
  stage.started = entry.started;
  if (stage.started) stage.seconds = entry.seconds;
  stage.gpus = entry.gpus;
  stage.log_findings = entry.log_findings;
  stage.job_id = entry.job_id;
  stage.nodes = entry.nodes;
  stage.resumed = resumed;
  stage.gpu = entry.gpu;
  stage.gpu_warnings = entry.gpu_warnings;
}

// The check a check stage's plan entry describes, read from its result file (moved like
// the log when the output directory was).
void add_check(StageReport& report, const plan::Stage& stage, const PlanFile& plan) {
  if (!report.started || !stage.check) return;
  const std::string path = relocated(check_result_path(*stage.check, report.cwd), plan);
  report.check = read_check_file(stage.check->kind, path, report.cwd, *report.started);
}

// The stage's last journal entry, if any, applied to its report.
void apply_last_entry(StageReport& report, const plan::PlanFileStage& stage, const PlanFile& plan,
                      const PlanJournal& journal, const run::JournalEntry& entry) {
  report.earlier_run = earlier_run(entry, stage, plan);
  if (report.earlier_run && !report.earlier_run->same_command) {
    // A result of another command says nothing about this one.
    report.result = run::Status::kSkipped;
    report.reason =
        fmt::format("not run since its command changed (its last result was {})", run::to_string(entry.result));
    return;
  }
  // --resume skips a stage whose last result is a PASS of the same command.
  const bool resumed_run = journal.started && journal.started->resumed;
  apply_entry(report, entry, resumed_run && report.earlier_run && entry.passed_with(stage.fingerprint));
  report.attempts = attempts_of(entry, plan);
}

StageReport stage_report(const PlanFile& plan, const plan::PlanFileStage& stage, const PlanJournal& journal,
                         const std::map<std::string, const run::JournalEntry*>& last) {
  StageReport report = stage_from_plan(stage.stage, plan);
  report.selected = plan.record.selects(report.id);
  if (!report.selected) report.reason = kNotSelectedReason;
  if (const auto it = last.find(report.id); it != last.end())
    apply_last_entry(report, stage, plan, journal, *it->second);
  add_check(report, stage.stage, plan);
  if (report.started) report.metrics = parse_stage_metrics_file(report.kind, report.log);
  if (report.started && !run::is_passed(report.result)) {
    report.log_tail = log_tail(report.log, kLogTailLines);
    report.error_line = first_error_line_of_file(report.log);
  }
  if (report.started && report.result == run::Status::kTimeout) report.stack = first_stack_frames_of_file(report.log);
  return report;
}

PlanReport plan_report(const PlanFile& plan, const PlanJournal& journal) {
  const plan::PlanFileRecord& record = plan.record;
  PlanReport report{record.config,
                    record.config_file,
                    record.mode,
                    record.model,
                    record.dialect,
                    record.dialect_source,
                    fs::path(plan.path).parent_path().string(),
                    {}};
  const auto last = journal.journal.last_entries();
  for (const plan::PlanFileStage& stage : record.stages)
    report.stages.push_back(stage_report(plan, stage, journal, last));
  return report;
}

// The configs --exclude left out of the runs, each once, sorted (each plan file of a run, and
// each shard of a suite, lists its run's).
std::vector<std::string> excluded_configs(const std::vector<PlanFile>& plans) {
  std::set<std::string> excluded;
  for (const PlanFile& plan : plans)
    excluded.insert(plan.record.excluded_configs.begin(), plan.record.excluded_configs.end());
  return {excluded.begin(), excluded.end()};
}

// The configs of no MODE of the runs, each once (every plan file of a run lists its run's).
std::vector<plan::ConfigInOtherModes> configs_in_other_modes(const std::vector<PlanFile>& plans) {
  std::vector<plan::ConfigInOtherModes> configs;
  std::set<std::string> files;
  for (const PlanFile& plan : plans) {
    for (const auto& config : plan.record.configs_in_other_modes) {
      if (files.insert(config.file).second) configs.push_back(config);
    }
  }
  return configs;
}

// The configs the runs left out: every plan file of a run lists its run's, so each run's are
// taken once (a tree holds the plans of several runs when configs were run one by one into it).
std::vector<ConfigProblem> invalid_configs(const std::vector<PlanFile>& plans) {
  std::vector<ConfigProblem> problems;
  std::set<std::string> runs;
  for (const PlanFile& plan : plans) {
    if (!runs.insert(plan.record.run_id).second) continue;
    for (const Diagnostic& item : plan.record.invalid_configs) {
      ConfigProblem problem{item.file, item.line, item.key, item.message};
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
  run.tool_version = plan.record.tool_version;
  run.repo_root = plan.record.repo_root;
  run.settings_file = plan.record.settings_file;
  if (!journal.started) return;
  run.jobs = journal.started->jobs;
  run.gpus = journal.started->gpus;
  run.resources_source = journal.started->resources;
  run.resumed = journal.started->resumed;
  run.gpu_devices = journal.started->devices;
}

// Over every plan: the earliest start, the latest finish. One plan without a "run
// finished" line makes the run cut short: interrupted, with no finish time.
void set_run_times(RunReport& run, const std::vector<PlanFile>& plans, const std::vector<PlanJournal>& journals) {
  bool cut_short = false;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const auto started = plans[i].record.started;
    if (started && !(run.started && *run.started <= *started)) run.started = started;
    const std::optional<run::RunFinishedLine>& finish_line = journals[i].finished;
    cut_short = cut_short || !finish_line;
    if (finish_line && !(run.finished && *run.finished >= finish_line->finished)) run.finished = finish_line->finished;
    if (finish_line && finish_line->interrupted) run.interrupted = true;
  }
  if (cut_short) {
    run.interrupted = true;
    run.finished.reset();
  }
}

// Takes the plan files: each plan's stages and journal entries are dropped once its report
// holds them.
Result<RunReport> report_from_plans(std::vector<PlanFile> plans) {
  RunReport run;
  std::vector<PlanJournal> journals;
  for (auto& plan : plans) {
    journals.push_back(TRY(read_plan_journal(plan)));
    if (run.plans.empty()) set_run_metadata(run, plan, journals.back());
    run.plans.push_back(plan_report(plan, journals.back()));
    journals.back().journal = {};
    plan.record.stages = {};
  }
  set_run_times(run, plans, journals);
  if (!plans.empty()) {
    const std::string first_dir = fs::path(plans.front().path).parent_path().string();
    run.environment = read_environment_file(first_dir);
    run.baseline = read_baseline_file(first_dir, run.started);
  }
  run.invalid_configs = invalid_configs(plans);
  run.excluded_configs = excluded_configs(plans);
  run.configs_in_other_modes = configs_in_other_modes(plans);
  return run;
}

std::vector<std::string> find_plan_files(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; it != end;
       it.increment(ec)) {
    if (it->path().filename() == plan::kPlanFileName && it->is_regular_file(ec)) files.push_back(it->path().string());
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
    return fail(Error::at(
        dir, 0, "",
        fmt::format("no {} at or under this directory: not the output of a tipc-run run", plan::kPlanFileName)));
  }
  return files;
}

// Two plan files of one config in one mode would report its stages twice.
Result<void> check_each_plan_once(const std::vector<PlanFile>& plans) {
  std::map<std::pair<std::string, std::string>, std::string> seen;  // (config, mode) -> plan file
  for (const PlanFile& plan : plans) {
    const auto key = std::pair{plan.record.config, plan.record.mode};
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
