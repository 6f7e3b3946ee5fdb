#include "run/journal.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/version.h"
#include "run/scheduler.h"

namespace tipc::run {
namespace fs = std::filesystem;

std::string stage_fingerprint(const plan::Stage& stage) {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across builds and machines
  auto mix = [&](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // separator
  };
  for (const auto& word : stage.argv) mix(word);
  mix(stage.cwd);
  for (const auto& [name, value] : stage.env) mix(name + "=" + value.value_or("<unset>"));
  return fmt::format("{:016x}", hash);
}

std::string plan_output_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(repo_root) / plan.run_dir / plan.output_dir).lexically_normal().string();
}

std::string journal_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / kJournalFileName).string();
}

std::string plan_file_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / plan::kPlanFileName).string();
}

std::string times_file_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / kTimesFileName).string();
}

Result<std::set<std::string>> passed_in_journal(const std::string& repo_root,
                                                const std::vector<const plan::Plan*>& plans) {
  std::set<std::string> passed;
  for (const auto* plan : plans) {
    const Journal journal = TRY(Journal::load(journal_path(repo_root, *plan)));
    const auto last = journal.last_entries();
    for (const auto& stage : plan->stages) {
      const auto it = last.find(stage.id);
      if (it != last.end() && it->second->passed_with(stage_fingerprint(stage))) passed.insert(stage_key(*plan, stage));
    }
  }
  return passed;
}

namespace {

// Stage id -> seconds: the times file of the plan's output directory, with the journal's
// times over it (they are newer). Stages no longer planned keep their time. A times file
// that cannot be read has no times; `warn`: say so on stderr.
Result<std::map<std::string, double>> durations_by_id(const std::string& repo_root, const plan::Plan& plan, bool warn) {
  auto recorded = read_times_file(times_file_path(repo_root, plan));
  if (!recorded && warn) {
    std::cerr << "tipc-run: warning: " << recorded.error().str() << "; the run orders its stages without these times\n";
  }
  std::map<std::string, double> seconds = recorded ? std::move(recorded->seconds) : std::map<std::string, double>{};
  for (const auto& [id, time] : TRY(Journal::load(journal_path(repo_root, plan))).last_times()) seconds[id] = time;
  return seconds;
}

}  // namespace

Result<std::map<std::string, double>> recorded_durations(const std::string& repo_root,
                                                         const std::vector<const plan::Plan*>& plans) {
  std::map<std::string, double> seconds;
  for (const auto* plan : plans) {
    const auto by_id = TRY(durations_by_id(repo_root, *plan, true));
    for (const auto& stage : plan->stages) {
      if (const auto it = by_id.find(stage.id); it != by_id.end()) seconds[stage_key(*plan, stage)] = it->second;
    }
  }
  return seconds;
}

namespace {

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// The ids of the stages of `plan` when a selection (--only, -k) left some of `whole` out.
std::optional<std::vector<std::string>> selected_ids(const plan::Plan& plan, const plan::Plan& whole) {
  if (&plan == &whole) return std::nullopt;
  std::vector<std::string> ids;
  for (const auto& stage : plan.stages) ids.push_back(stage.id);
  return ids;
}

// The whole plan's stages with absolute cwd and log, and the fingerprint that tells a
// resumed stage (an older PASS of the same command).
std::vector<plan::PlanFileStage> plan_file_stages(const std::string& repo_root, const plan::Plan& whole) {
  std::vector<plan::PlanFileStage> stages;
  for (const auto& stage : whole.stages) {
    plan::PlanFileStage& written = stages.emplace_back(plan::PlanFileStage{stage, stage_fingerprint(stage)});
    written.stage.cwd = stage_cwd_path(repo_root, stage);
    written.stage.log = stage_log_path(repo_root, whole, stage);
  }
  return stages;
}

plan::PlanFileRecord plan_file_record(const RunContext& context, const plan::Plan& plan, const plan::Plan& whole,
                                      const std::string& run_id, double started) {
  std::error_code ec;
  return {.tool_version = kToolVersion,
          .run_id = run_id,
          .started = started,
          .config = plan.config_path,
          .config_file = fs::absolute(plan.config_path, ec).lexically_normal().string(),
          .settings_file = context.settings_file,
          .mode = plan.mode,
          .model = plan.model_name,
          .dialect = plan.dialect,
          .dialect_source = context.dialect_source,
          .invalid_configs = context.left_out.invalid,
          .excluded_configs = context.left_out.excluded,
          .configs_in_other_modes = context.left_out.in_other_modes,
          .compat = plan.compat,
          .repo_root = context.repo_root,
          .output_dir = plan_output_path(context.repo_root, plan),
          .selected = selected_ids(plan, whole),
          .stages = plan_file_stages(context.repo_root, whole)};
}

RunStartedLine run_started_line(const RunInfo& info, const RunContext& context, const std::string& run_id,
                                double started) {
  RunStartedLine line{run_id, started, info.jobs, {}, info.resources.source, context.resumed, kToolVersion, {}};
  for (const auto& gpu : info.resources.gpus) {
    line.gpus.push_back(gpu.id);
    if (!gpu.uuid.empty()) line.devices.push_back(gpu);
  }
  return line;
}

// The tries --retries ran before the last one, oldest first: each one's result, times and log.
std::vector<AttemptEntry> attempt_entries(const std::vector<Attempt>& attempts, double run_started_unix) {
  std::vector<AttemptEntry> entries;
  for (const Attempt& attempt : attempts) {
    entries.push_back({attempt.verdict.result, attempt.verdict.reason, run_started_unix + attempt.start_seconds,
                       attempt.end_seconds - attempt.start_seconds, attempt.exit_code, attempt.signal,
                       attempt.log_path});
  }
  return entries;
}

// Rewrites the journal to each stage's last line (Journal::write_compacted). One of a newer
// tipc-run is not touched: a write error. One that cannot be rewritten is appended to as it
// is: nothing is lost but space.
Result<void> compact_journal(const std::string& path) {
  const Journal journal = TRY(Journal::load(path));
  if (auto written = journal.write_compacted(path); !written) {
    std::cerr << "tipc-run: warning: " << written.error().str() << '\n';
  }
  return {};
}

}  // namespace

void JournalWriter::run_started(const RunInfo& info) {
  plans_ = info.plans;
  not_started_.clear();
  started_unix_ = unix_now();
  // Unique also for two runs of one process within a millisecond (the tests start many).
  static int runs_of_this_process = 0;
  ++runs_of_this_process;
  run_id_ = runs_of_this_process == 1
                ? fmt::format("{:.0f}-{}", started_unix_ * 1000, getpid())
                : fmt::format("{:.0f}-{}-{}", started_unix_ * 1000, getpid(), runs_of_this_process);
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const plan::Plan& plan = *plans_[i];
    const plan::Plan& whole = i < context_.whole_plans.size() ? *context_.whole_plans[i] : plan;
    const std::string path = journal_path(context_.repo_root, plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    note_write_error(compact_journal(path));
    note_write_error(
        write_file_atomically(plan_file_path(context_.repo_root, plan),
                              plan_file_text(plan_file_record(context_, plan, whole, run_id_, started_unix_))));
    note_write_error(Journal::append(path, run_started_line(info, context_, run_id_, started_unix_)));
  }
}

void JournalWriter::stage_finished(const StageRecord& record) {
  const Observation& o = record.observation;
  const bool started = record.start_seconds >= 0;
  if (record.resumed) return;  // it keeps its last result, the PASS it was resumed on
  JournalEntry entry{record.stage->id,
                     run_id_,
                     started_unix_,
                     stage_fingerprint(*record.stage),
                     record.verdict.result,
                     record.verdict.reason,
                     record.end_seconds >= 0 ? record.end_seconds - record.start_seconds : 0,
                     started ? std::optional<double>(started_unix_ + record.start_seconds) : std::nullopt,
                     o.exit_code,
                     o.signal,
                     record.gpus,
                     o.log_findings,
                     record.job_id,
                     record.nodes,
                     attempt_entries(record.attempts, started_unix_),
                     record.gpu_figures,
                     record.gpu_warnings};
  // An interrupt also skips the dependents of the stages it stopped: whether a skip is
  // this run's result is known only at its end.
  if (!started && record.verdict.result == Status::kSkipped) {
    not_started_.emplace_back(record.plan, std::move(entry));
    return;
  }
  note_write_error(Journal::append(journal_path(context_.repo_root, *record.plan), entry));
}

void JournalWriter::run_finished(const RunSummary& summary) {
  for (const auto& [plan, skipped] : not_started_) {
    if (!summary.interrupted) note_write_error(Journal::append(journal_path(context_.repo_root, *plan), skipped));
  }
  not_started_.clear();
  const RunFinishedLine line{run_id_, started_unix_ + summary.seconds, summary.seconds, summary.interrupted};
  for (const auto* plan : plans_) {
    note_write_error(Journal::append(journal_path(context_.repo_root, *plan), line));
    // Only estimates: a times file that cannot be written costs the next run its start order, not its result.
    auto seconds = durations_by_id(context_.repo_root, *plan, false);
    const auto written = seconds
                             ? write_times_file(times_file_path(context_.repo_root, *plan), {kTimesVersion, *seconds})
                             : Result<void>(fail(seconds.error()));
    if (!written) {
      std::cerr << "tipc-run: warning: " << written.error().str()
                << "; the next run orders its stages without these times\n";
    }
  }
}

void JournalWriter::note_write_error(const Result<void>& written) {
  if (written || !write_error_.empty()) return;
  write_error_ = written.error().str();
  std::cerr << "tipc-run: error: " << write_error_ << "; --resume and the reports cannot see this run's results\n";
}

}  // namespace tipc::run
