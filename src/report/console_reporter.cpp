#include "report/console_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "core/file_tail.h"
#include "core/plural.h"
#include "core/visible_text.h"
#include "plan/shell_words.h"
#include "report/config_labels.h"
#include "report/error_line.h"
#include "report/gpu_report.h"
#include "report/report_text.h"

namespace tipc::report {

ConsoleStyle ConsoleStyle::detect(int fd, bool quiet) {
  const char* term = std::getenv("TERM");
  const bool tty = isatty(fd) && !(term && std::string(term) == "dumb");
  const char* force = std::getenv("CLICOLOR_FORCE");
  const bool forced = force && std::string(force) != "0";
  const bool no_color = std::getenv("NO_COLOR") && *std::getenv("NO_COLOR");
  return {tty, !no_color && (tty || forced), quiet};
}

std::string log_tail(const std::string& path, int lines) {
  const std::string text = file_tail(path, 64 << 10);
  std::size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;
  for (int n = 0; n < lines && at != std::string::npos && at > 0; ++n) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

// Visible text (core/visible_text.h), in the colour of `status` where the style has colour.
std::string ConsoleReporter::paint(const std::string& text, run::Status status) const {
  if (!style_.color) return visible_text(text);
  const char* code = status == run::Status::kPass                                           ? "32"
                     : run::is_failure(status)                                              ? "31"
                     : status == run::Status::kUnsupported || status == run::Status::kFlaky ? "33"
                                                                                            : "36";
  return fmt::format("\x1b[{}m{}\x1b[0m", code, visible_text(text));
}

void ConsoleReporter::status(const std::string& shown) {
  if (!style_.rewrite || style_.quiet) return;
  std::fprintf(out_, "\r%s\x1b[K", shown.c_str());
  std::fflush(out_);
  status_shown_ = true;
}

void ConsoleReporter::line(const std::string& text) { shown_line(visible_text(text)); }

void ConsoleReporter::shown_line(const std::string& shown) {
  if (status_shown_) std::fputs("\r\x1b[K", out_);
  status_shown_ = false;
  std::fprintf(out_, "%s\n", shown.c_str());
  std::fflush(out_);
}

void ConsoleReporter::run_started(const run::RunInfo& info) {
  total_ = info.total_stages;
  config_labels_.clear();
  plan_labels_.clear();
  gpu_warnings_shown_.clear();
  if (info.plans.size() > 1) {
    std::vector<ConfigRun> runs;
    for (const auto* plan : info.plans) runs.push_back({plan->config_path, plan->mode});
    plan_labels_ = config_labels(runs);
    for (std::size_t i = 0; i < plan_labels_.size(); ++i) config_labels_[info.plans[i]] = plan_labels_[i];
  }
  if (style_.quiet) return;
  line(fmt::format("tipc-run: {}, {}, GPUs: {}", plural(info.total_stages, "stage"),
                   plural(static_cast<std::size_t>(info.jobs), "job"),
                   gpus_text(gpu_names(info.resources.gpus, true), info.resources.source)));
}

std::string ConsoleReporter::stage_name(const run::StageRecord& record) const {
  const auto label = config_labels_.find(record.plan);
  return label == config_labels_.end() ? record.stage->id : label->second + ": " + record.stage->id;
}

void ConsoleReporter::stage_started(const run::StageRecord& record) {
  flush_pending_details();
  running_[record.stage] = {stage_name(record), record.start_seconds, 0};
  if (style_.quiet) return;
  if (style_.rewrite) {
    status(visible_text(fmt::format("[{}/{}] {}", done_, total_, stage_name(record))));
  } else {
    line(fmt::format("[{}/{}] {:<11} {}", done_, total_, "started", stage_name(record)));
  }
}

std::string running_time(long minutes) {
  return minutes < 60 ? fmt::format("{}m", minutes) : fmt::format("{}h {:02}m", minutes / 60, minutes % 60);
}

// A terminal shows the running stage in its status line; a log gets a line each minute.
void ConsoleReporter::tick(double run_seconds) {
  flush_pending_details();
  if (style_.rewrite || style_.quiet) return;
  for (auto& [stage, running] : running_) {
    const auto minutes = static_cast<long>((run_seconds - running.start_seconds) / 60);
    if (minutes <= running.minutes_reported) continue;
    running.minutes_reported = minutes;
    line(fmt::format("[{}/{}] still running: {} (for {})", done_, total_, running.id, running_time(minutes)));
  }
}

void ConsoleReporter::stage_finished(const run::StageRecord& record) {
  flush_pending_details();
  ++done_;
  running_.erase(record.stage);
  const run::Status result = record.verdict.result;
  const double seconds = record.end_seconds >= 0 ? record.end_seconds - record.start_seconds : 0;
  std::string details = stage_name(record);
  if (record.start_seconds >= 0 && record.end_seconds >= 0) details += fmt::format(" ({:.1f} s)", seconds);
  if (!record.job_id.empty()) details += " [" + cluster_job_label(record.job_id, record.nodes) + "]";
  if (!record.verdict.reason.empty()) details += " - " + record.verdict.reason;
  const std::string word = paint(fmt::format("{:<11}", run::to_string(result)), result);
  const std::string shown = fmt::format("[{}/{}] {} {}", done_, total_, word, visible_text(details));
  // A terminal shows a pass in its status line only; UNSUPPORTED is summarised at the end.
  const bool shown_quiet = needs_attention(result);
  if ((result == run::Status::kPass && style_.rewrite) || result == run::Status::kUnsupported ||
      (style_.quiet && !shown_quiet)) {
    gpu_warnings(record);
    status(shown);
    return;
  }
  shown_line(shown);
  gpu_warnings(record);
  if (!run::is_failure(result) || record.start_seconds < 0) return;
  if (record.stage->kind == plan::StageKind::kCheck) {
    pending_details_ = record;  // its values may show it failed like an earlier check
  } else {
    failure_details(record);
  }
}

// What the driver showed on the stage's GPUs that was not its doing; a warning another stage
// had already (a process holding a GPU all run long) is not printed again.
void ConsoleReporter::gpu_warnings(const run::StageRecord& record) {
  if (style_.quiet) return;
  for (const std::string& warning : record.gpu_warnings) {
    if (!gpu_warnings_shown_.insert(warning).second) continue;
    line(fmt::format("    GPU warning ({}): {}", stage_name(record), warning));
  }
}

void ConsoleReporter::failure_details(const run::StageRecord& record) {
  // Quoted as a shell reads it back: a setup stage's actions are one word each.
  const std::string command = plan::join_shell_words(record.stage->argv);
  line(fmt::format("    command: {}\n    cwd: {}\n    log: {}", command, record.stage->cwd, record.log_path));
  const std::string tail = log_tail(record.log_path, tail_lines_);
  if (!tail.empty()) line(fmt::format("    last {} log lines:\n{}", tail_lines_, tail));
}

// A failed check that wrote no values: its details as for any failed stage.
void ConsoleReporter::flush_pending_details() {
  if (!pending_details_) return;
  const run::StageRecord record = std::move(*pending_details_);
  pending_details_.reset();
  failure_details(record);
}

void ConsoleReporter::check_finished(const run::StageRecord& record, const CheckDetails& check) {
  if (!run::is_failure(record.verdict.result)) return;  // a pass is one line, as for any stage
  const std::string failures = check_failures_text(check);
  if (!failures.empty()) {
    const auto [first, inserted] = failed_checks_.emplace(failures, record.stage->id);
    if (!inserted) {
      pending_details_.reset();
      line(fmt::format("    same failures as check {}\n    log: {}", first->second, record.log_path));
      return;
    }
  }
  flush_pending_details();
  constexpr std::size_t kFailingValuesShown = 10;
  const auto shown = headline_values(check, kFailingValuesShown, 0);
  std::string text = "    check values:";
  for (const CheckValue* value : shown) text += "\n      " + check_value_line(*value);
  const std::size_t failing =
      std::count_if(check.values.begin(), check.values.end(), [](const CheckValue& v) { return !v.passed; });
  if (failing > shown.size())
    text += fmt::format("\n      ... and {} more failing (report.json)", failing - shown.size());
  for (const auto& note : check.notes) text += "\n      note: " + note;
  if (!shown.empty() || !check.notes.empty()) line(text);
}

// The verdict's grouping (run/run_verdict.h), so that this summary and the verdict line count
// alike; only UNSUPPORTED stages: a SKIPPED one already had its line.
void ConsoleReporter::unsupported_summary(const run::RunVerdict& verdict) {
  std::vector<const run::CouldNotRunGroup*> groups;
  std::size_t total = 0;
  for (const auto& group : verdict.could_not_run_groups) {
    if (group.status != run::Status::kUnsupported) continue;
    groups.push_back(&group);
    total += group.ids.size();
  }
  if (groups.empty()) return;
  constexpr std::size_t kIdsShown = 3;
  std::string text = fmt::format("tipc-run: {} could not run here:", plural(total, "stage"));
  for (const auto* group : groups) {
    const std::size_t shown = std::min(group->ids.size(), kIdsShown);
    std::string ids;
    for (std::size_t i = 0; i < shown; ++i) {
      const auto plan = static_cast<std::size_t>(group->plans[i]);
      const std::string label = plan < plan_labels_.size() ? plan_labels_[plan] + ": " : "";
      ids += (i == 0 ? "" : ", ") + label + group->ids[i];
    }
    if (group->ids.size() > shown) ids += fmt::format(" and {} more", group->ids.size() - shown);
    text += fmt::format("\n  {} ({}): {}", plural(group->ids.size(), "stage"), group->reason, ids);
  }
  shown_line(paint(text, run::Status::kUnsupported));
}

// The stages to look at, once more at the end, where a long CI log is read first.
void ConsoleReporter::recap(const std::vector<run::StageRecord>& stages) {
  std::string text;
  std::size_t n = 0;
  for (const run::StageRecord& record : stages) {
    const run::Status result = record.verdict.result;
    if (!needs_attention(result)) continue;
    ++n;
    text += fmt::format("\n  {} {}", paint(fmt::format("{:<11}", run::to_string(result)), result),
                        visible_text(stage_name(record)));
    if (record.start_seconds < 0) continue;  // never started: no log
    text += "\n              log: " + visible_text(record.log_path);
    if (const std::string error = first_error_line_of_file(record.log_path); !error.empty()) {
      text += "\n              " + visible_text(error);
    }
  }
  if (n > 0) shown_line(fmt::format("tipc-run: {} to look at:{}", plural(n, "stage"), text));
}

void ConsoleReporter::run_finished(const run::RunSummary& summary) {
  flush_pending_details();
  if (style_.quiet) {
    recap(summary.stages);
    return;
  }
  unsupported_summary(summary.verdict());
  using run::Status;
  const int flaky = summary.count(Status::kFlaky);  // passed, after a retry: counted on their own, never hidden
  line(fmt::format(
      "tipc-run: {} passed{}, {} failed, {} timed out, {} unsupported, {} skipped, {} unresolved in {:.1f} s{}",
      summary.count(Status::kPass), flaky > 0 ? fmt::format(", {} flaky", flaky) : "", summary.count(Status::kFail),
      summary.count(Status::kTimeout), summary.count(Status::kUnsupported), summary.count(Status::kSkipped),
      summary.count(Status::kUnresolved), summary.seconds, summary.interrupted ? " (interrupted)" : ""));
  recap(summary.stages);
}

std::string verdict_line(const run::RunVerdict& verdict, const run::VerdictRules& rules) {
  if (verdict.kind == run::VerdictKind::kNothingRan) {
    const int code = verdict.exit_code(rules);
    return fmt::format("tipc-run: {} ({})", verdict.explanation(),
                       code == kExitPassed       ? std::string("accepted: --allow-nothing")
                       : code == kExitNothingRan ? fmt::format("exit {}; --allow-nothing accepts it", code)
                                                 : fmt::format("exit {}: --strict", code));
  }
  const std::string why = verdict.explanation();
  return "tipc-run: " + verdict.headline() + (why.empty() ? "" : ": " + why);
}

}  // namespace tipc::report
