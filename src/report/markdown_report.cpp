#include "report/markdown_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/plural.h"
#include "report/gpu_report.h"
#include "report/markdown_text.h"
#include "report/report_text.h"
#include "run/outcome.h"

namespace tipc::report {
namespace {

constexpr std::size_t kMaxStageRows = 50;
constexpr std::size_t kMaxFailingValuesPerCheck = 10;

const char* icon(run::VerdictKind verdict) {
  switch (verdict) {
    case run::VerdictKind::kPass: return "✅";
    case run::VerdictKind::kPartial:
    case run::VerdictKind::kInterrupted: return "⚠️";
    case run::VerdictKind::kNothingRan:
    case run::VerdictKind::kFail: return "❌";
  }
  return "❌";
}

const char* icon(run::Status result) {
  if (result == run::Status::kPass) return "✅";
  if (result == run::Status::kFlaky) return "🔁";
  return run::is_failure(result) ? "❌" : "⚠️";
}

template <class Predicate>
std::size_t count_stages(const RunReport& report, Predicate predicate) {
  std::size_t n = 0;
  for (const auto& plan : report.plans) n += std::count_if(plan.stages.begin(), plan.stages.end(), predicate);
  return n;
}

std::string headline(const RunReport& report) {
  const run::RunVerdict verdict = report.verdict();
  std::size_t stages = 0;
  for (const auto& plan : report.plans) stages += plan.stages.size();
  std::string details = fmt::format("{} stage{} of {} config{}", stages, stages == 1 ? "" : "s", report.plans.size(),
                                    report.plans.size() == 1 ? "" : "s");
  if (report.started && report.finished) details += fmt::format(" in {:.1f} s", *report.finished - *report.started);
  details += fmt::format(" · {} job{}", report.jobs, report.jobs == 1 ? "" : "s");
  const std::vector<std::string> gpus = gpu_names(given_gpu_devices(report), true);
  details += gpus.empty() ? " · no GPU" : " · GPUs " + markdown_cell(fmt::format("{}", fmt::join(gpus, ", ")));
  if (!report.resources_source.empty()) details += fmt::format(" ({})", markdown_cell(report.resources_source));
  if (!report.tool_version.empty()) details += " · tipc-run " + markdown_cell(report.tool_version);
  std::string out = fmt::format("## {} tipc-run: {}\n\n{}\n", icon(verdict.kind), verdict.headline(), details);
  if (const std::string why = verdict.explanation(); !why.empty()) out += fmt::format("\n**{}**\n", markdown_cell(why));
  if (const std::size_t earlier =
          count_stages(report, [](const StageReport& s) { return s.earlier_run.has_value(); })) {
    out += fmt::format("\n{} of the {} results are from earlier runs: the last run did not run {}.\n", earlier, stages,
                       earlier == 1 ? "that stage" : "those stages");
  }
  if (report.interrupted) {
    const std::size_t never_started =
        count_stages(report, [](const StageReport& s) { return !s.started && s.result == run::Status::kSkipped; });
    out += fmt::format("\nThe run ended before it was finished: {} stage{} never started.\n", never_started,
                       never_started == 1 ? "" : "s");
  }
  return out;
}

std::string counts_table(const RunReport& report) {
  std::string out = "\n| Config | Mode |";
  std::string rule = "|---|---|";
  // FLAKY only where a retry made a stage pass: most runs have no --retries.
  std::vector<run::Status> statuses(std::begin(run::kAllStatuses), std::end(run::kAllStatuses));
  if (report.count(run::Status::kFlaky) == 0) std::erase(statuses, run::Status::kFlaky);
  for (const run::Status status : statuses) {
    out += fmt::format(" {} |", run::to_string(status));
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for (const PlanReport& plan : report.plans) {
    out += fmt::format("| {} | {} |", markdown_code(plan.config), markdown_cell(plan.mode));
    for (const run::Status status : statuses) {
      out += fmt::format(" {} |", std::count_if(plan.stages.begin(), plan.stages.end(),
                                                [&](const StageReport& s) { return s.result == status; }));
    }
    out += "\n";
  }
  return out;
}

struct StageRef {
  const PlanReport* plan;
  const StageReport* stage;
};

// With several configs a stage id alone is ambiguous: it gets its config's label
// (plan_labels, worked out once for the report).
class StageLabels {
 public:
  explicit StageLabels(const RunReport& report)
      : plans_(report.plans.data()),
        labels_(report.plans.size() < 2 ? std::vector<std::string>{} : plan_labels(report)) {}
  std::string operator()(const StageRef& ref) const {
    if (labels_.empty()) return markdown_code(ref.stage->id);
    return markdown_code(labels_[static_cast<std::size_t>(ref.plan - plans_)] + ": " + ref.stage->id);
  }

 private:
  const PlanReport* plans_;
  std::vector<std::string> labels_;
};

int severity(run::Status result) {
  if (run::is_failure(result)) return 0;
  return result == run::Status::kFlaky ? 1 : result == run::Status::kSkipped ? 2 : 3;
}

std::string cut_notice(std::size_t shown, std::size_t total, const char* what) {
  return shown < total ? fmt::format("\n… and {} more {} (see report.json).\n", total - shown, what) : "";
}

// The first kMaxStageRows of `lines` (each ending in its line feed), and how many more there are.
std::string capped_lines(const std::vector<std::string>& lines, const char* what) {
  const std::size_t shown = std::min(lines.size(), kMaxStageRows);
  std::string out;
  for (std::size_t i = 0; i < shown; ++i) out += lines[i];
  return out + cut_notice(shown, lines.size(), what);
}

// One table row: a failure on its own, or every SKIPPED or UNSUPPORTED stage that shares
// a result and a reason (a CPU run of a GPU matrix would otherwise list dozens of rows).
struct NotPassedRow {
  run::Status result;
  std::string reason;
  std::vector<StageRef> stages;
};

// The reason, and for an earlier run's result, when that run was.
std::string reason_shown(const StageReport& stage) {
  const std::string note = earlier_run_note(stage);
  return note.empty() ? stage.reason : fmt::format("{} ({})", stage.reason, note);
}

std::vector<NotPassedRow> not_passed_rows(const RunReport& report) {
  std::vector<NotPassedRow> rows;
  for (const PlanReport& plan : report.plans) {
    for (const StageReport& stage : plan.stages) {
      if (stage.result == run::Status::kPass) continue;
      const std::string reason = reason_shown(stage);
      const auto same_group = [&](const NotPassedRow& row) {
        return severity(stage.result) > 0 && row.result == stage.result && row.reason == reason;
      };
      if (auto it = std::find_if(rows.begin(), rows.end(), same_group); it != rows.end()) {
        it->stages.push_back({&plan, &stage});
      } else {
        rows.push_back({stage.result, reason, {{&plan, &stage}}});
      }
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const NotPassedRow& a, const NotPassedRow& b) {
    return severity(a.result) < severity(b.result);
  });
  return rows;
}

std::string stage_list(const StageLabels& stage_label, const std::vector<StageRef>& stages) {
  constexpr std::size_t kNamedStages = 3;
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < std::min(stages.size(), kNamedStages); ++i) labels.push_back(stage_label(stages[i]));
  std::string out = fmt::format("{}", fmt::join(labels, ", "));
  if (stages.size() > kNamedStages) out += fmt::format(" and {} more", stages.size() - kNamedStages);
  return out;
}

// A failure's reason, its log's first error line, and a TIMEOUT's first frames where it hung.
std::string reason_with_error(const NotPassedRow& row) {
  std::string text = markdown_cell(row.reason);
  if (row.stages.size() != 1) return text;
  const StageReport& stage = *row.stages.front().stage;
  if (!stage.error_line.empty()) text += " · first error: " + markdown_code(stage.error_line);
  std::vector<std::string> frames;
  for (const std::string& frame : stage.stack) frames.push_back(markdown_code(frame));
  if (!frames.empty()) text += fmt::format(" · hung in {}", fmt::join(frames, " ← "));
  return text;
}

// Failures first, then FLAKY, SKIPPED, UNSUPPORTED; plan order within each.
std::string not_passed_table(const RunReport& report, const StageLabels& stage_label) {
  const auto rows = not_passed_rows(report);
  if (rows.empty()) return "";
  std::string out = "\n### Stages that did not pass\n\n| Result | Stage | Reason |\n|---|---|---|\n";
  const std::size_t shown = std::min(rows.size(), kMaxStageRows);
  for (std::size_t i = 0; i < shown; ++i) {
    out += fmt::format("| {} {} | {} | {} |\n", icon(rows[i].result), run::to_string(rows[i].result),
                       stage_list(stage_label, rows[i].stages), reason_with_error(rows[i]));
  }
  return out + cut_notice(shown, rows.size(), "rows");
}

std::string check_rows(const StageLabels& stage_label, const StageRef& ref) {
  const CheckDetails& check = *ref.stage->check;
  const auto shown = headline_values(check, kMaxFailingValuesPerCheck, 1);
  std::string out;
  for (const CheckValue* v : shown) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", stage_label(ref), markdown_cell(v->label),
                       format_number(v->value), v->limit ? format_number(*v->limit) : "", v->passed ? "✅" : "❌");
  }
  if (shown.size() < check.values.size()) {
    out += fmt::format("| {} | … {} more | | | |\n", stage_label(ref), check.values.size() - shown.size());
  }
  for (const std::string& note : check.notes) {
    out += fmt::format("| {} | {} | | | |\n", stage_label(ref), markdown_cell(note));
  }
  return out;
}

// A check that failed like an earlier one of its plan refers to it instead of repeating its values.
std::string checks_table(const RunReport& report, const StageLabels& stage_label) {
  std::string rows;
  for (const PlanReport& plan : report.plans) {
    const auto same_failures = checks_failed_like_earlier(plan);
    for (std::size_t s = 0; s < plan.stages.size(); ++s) {
      const StageRef ref{&plan, &plan.stages[s]};
      if (const auto it = same_failures.find(s); it != same_failures.end()) {
        rows += fmt::format("| {} | same failures as check {} | | | ❌ |\n", stage_label(ref),
                            stage_label({&plan, &plan.stages[it->second]}));
      } else if (ref.stage->check) {
        rows += check_rows(stage_label, ref);
      }
    }
  }
  if (rows.empty()) return "";
  return "\n### Alignment checks\n\n| Check | What | Measured | Limit | Result |\n|---|---|---:|---:|---|\n" + rows;
}

// Which dialect planned the configs, and how it was chosen.
std::string dialect_lines(const RunReport& report) {
  std::vector<std::string> dialects;  // one per distinct dialect and source: a suite has one
  for (const auto& plan : report.plans) {
    std::string text = "Dialect " + markdown_code(plan.dialect);
    if (!plan.dialect_source.empty()) text += " (" + markdown_cell(plan.dialect_source) + ")";
    if (std::find(dialects.begin(), dialects.end(), text) == dialects.end()) dialects.push_back(text);
  }
  return dialects.empty() ? "" : fmt::format("\n{}\n", fmt::join(dialects, " · "));
}

std::string invalid_configs_table(const RunReport& report) {
  if (report.invalid_configs.empty()) return "";
  std::string out =
      "\n### Invalid configs (left out of the run)\n\n| Config | Line | Key | Problem |\n|---|---:|---|---|\n";
  for (const ConfigProblem& p : report.invalid_configs) {
    out += fmt::format("| {} | {} | {} | {} |\n", markdown_code(p.file), p.line > 0 ? std::to_string(p.line) : "",
                       p.key.empty() ? "" : markdown_code(p.key), markdown_cell(p.message));
  }
  return out;
}

// "2 configs excluded (--exclude): `a.txt`, `b/c.txt`": given, and left out on purpose.
std::string excluded_configs_line(const RunReport& report) {
  if (report.excluded_configs.empty()) return "";
  std::vector<std::string> files;
  for (const auto& file : report.excluded_configs) files.push_back(markdown_code(file));
  return fmt::format("\n{} excluded (--exclude): {}\n", plural(report.excluded_configs.size(), "config"),
                     fmt::join(files, ", "));
}

// "3 configs in none of the MODEs: 1 inference_cpp (cpp_infer); 2 ...": collected, not run.
std::string other_modes_line(const RunReport& report) {
  if (report.configs_in_other_modes.empty()) return "";
  return fmt::format("\n{} in none of the MODEs: {}\n", plural(report.configs_in_other_modes.size(), "config"),
                     markdown_cell(configs_in_other_modes_by_chain(report.configs_in_other_modes)));
}

// The failing regressions against the baseline (--baseline), which fail the run.
std::string regressions_table(const RunReport& report) {
  if (!report.baseline || report.baseline->regressions.empty()) return "";
  std::string out = fmt::format(
      "\n### Regressed against {} (--baseline)\n\n| Stage | Figure | Baseline | This run | Change | Why |\n"
      "|---|---|---:|---:|---:|---|\n",
      markdown_cell(report.baseline->baseline));
  for (const BaselineRegression& r : report.baseline->regressions) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_code(r.config + " " + r.mode + ": " + r.stage),
                       markdown_cell(r.figure), markdown_cell(r.base), markdown_cell(r.current),
                       markdown_cell(r.change), markdown_cell(r.why));
  }
  return out;
}

// The GPU warnings, each once with the stages that had it: what the driver showed on their GPUs
// that was not their doing.
std::string gpu_warnings_list(const RunReport& report, const StageLabels& stage_label) {
  std::vector<std::string> items;
  for (const GpuWarningGroup& group : gpu_warning_groups(report)) {
    std::vector<StageRef> stages;
    for (const auto& [plan, stage] : group.stages) stages.push_back({plan, stage});
    items.push_back(fmt::format("- {} ({})\n", markdown_cell(group.warning), stage_list(stage_label, stages)));
  }
  return items.empty() ? "" : "\n### ⚠️ GPU warnings\n\n" + capped_lines(items, "warnings");
}

// The driver's figures of each stage that has them: peak memory, utilisation, power, throttling.
std::string gpu_figures_table(const RunReport& report, const StageLabels& stage_label) {
  std::vector<std::string> rows;
  for (const PlanReport& plan : report.plans) {
    for (const StageReport& stage : plan.stages) {
      if (stage.gpu.empty()) continue;
      std::string figures = gpu_figures_text(stage.gpu);
      if (const std::string throttled = throttle_text(stage.gpu); !throttled.empty()) figures += " · " + throttled;
      const std::string gpus = fmt::format("{}", fmt::join(stage.gpus, ", "));
      rows.push_back(
          fmt::format("| {} | {} | {} |\n", stage_label({&plan, &stage}), markdown_cell(gpus), markdown_cell(figures)));
    }
  }
  if (rows.empty()) return "";
  return "\n### GPU figures\n\n| Stage | GPUs | While it ran |\n|---|---|---|\n" + capped_lines(rows, "rows");
}

std::string environment_list(const RunReport& report) {
  if (!report.environment) return "";
  std::string out = "\n### Environment\n\n";
  for (const auto& [label, text] : environment_facts(*report.environment, given_gpus(report))) {
    out += fmt::format("- **{}**: {}\n", label,
                       label == "Command" || label == "Repository" ? markdown_code(text) : markdown_cell(text));
  }
  return out;
}

}  // namespace

std::string render_markdown_report(const RunReport& report) {
  const StageLabels stage_label(report);
  return headline(report) + dialect_lines(report) + counts_table(report) + invalid_configs_table(report) +
         excluded_configs_line(report) + other_modes_line(report) + regressions_table(report) +
         gpu_warnings_list(report, stage_label) + not_passed_table(report, stage_label) +
         checks_table(report, stage_label) + gpu_figures_table(report, stage_label) + environment_list(report);
}

}  // namespace tipc::report
