#include "report/junit_report.h"

#include <ctime>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plan/shell_words.h"
#include "report/gpu_report.h"
#include "report/report_text.h"
#include "report/xml_escape.h"
#include "run/outcome.h"

namespace tipc::report {
namespace {

std::string attr(std::string_view text) { return xml_escape(text, XmlContext::kAttribute); }
std::string text(std::string_view text) { return xml_escape(text, XmlContext::kText); }

// Jenkins' schema allows only digits and a decimal point in a time.
std::string junit_time(double seconds) { return fmt::format("{:.3f}", std::max(0.0, seconds)); }

struct Totals {
  int tests = 0, failures = 0, errors = 0, skipped = 0;

  void add(const StageReport& stage) {
    const run::Status status = stage.result;
    ++tests;
    failures += status == run::Status::kFail ? 1 : 0;
    errors += status == run::Status::kTimeout || status == run::Status::kUnresolved ? 1 : 0;
    skipped += status == run::Status::kUnsupported || status == run::Status::kSkipped ? 1 : 0;
  }
  void add(const Totals& other) {
    tests += other.tests, failures += other.failures, errors += other.errors, skipped += other.skipped;
  }
  std::string attributes() const {
    return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\"", tests, failures, errors);
  }
};

// Wall time, as the console reports it, not the sum of stage times (stages run side by side):
// the run's, from its start to its finish; without both, the sum is all there is.
double run_seconds(const RunReport& report) {
  if (report.started && report.finished) return *report.finished - *report.started;
  double sum = 0;
  for (const PlanReport& plan : report.plans) {
    for (const StageReport& stage : plan.stages) sum += stage.seconds.value_or(0);
  }
  return sum;
}

// A plan's: from its first stage's start to its last stage's end in this run.
double plan_seconds(const RunReport& report, const PlanReport& plan) {
  std::optional<double> first, last;
  for (const StageReport& stage : plan.stages) {
    if (!stage.started || (report.started && *stage.started < *report.started)) continue;  // an earlier run's
    first = std::min(first.value_or(*stage.started), *stage.started);
    last = std::max(last.value_or(*stage.started), *stage.started + stage.seconds.value_or(0));
  }
  return first ? *last - *first : 0;
}

std::string class_name(const std::string& config, const std::string& mode) {
  return std::filesystem::path(config).replace_extension().string() + "." + mode;
}

// The stage's reason, and when its result is an earlier run's, that run's time.
std::string message(const StageReport& stage) {
  const std::string note = earlier_run_note(stage);
  if (note.empty()) return stage.reason;
  return stage.reason.empty() ? note : stage.reason + " (" + note + ")";
}

// What a CI page shows of a failure first: its log's first error line, else its reason; an
// earlier run's result says so either way.
std::string failure_message(const StageReport& stage) {
  if (stage.error_line.empty()) return message(stage);
  const std::string note = earlier_run_note(stage);
  return note.empty() ? stage.error_line : stage.error_line + " (" + note + ")";
}

// What a failure's text holds: the reason (when the message is the error line), a TIMEOUT's
// first frames where it hung, the check values that failed, the check's notes.
std::string failure_text(const StageReport& stage) {
  std::string out = stage.error_line.empty() || stage.reason.empty() ? "" : stage.reason + "\n";
  if (!stage.stack.empty()) out += "where it hung, most recent call first:\n";
  for (const std::string& frame : stage.stack) out += "  " + frame + "\n";
  if (stage.check) {
    for (const CheckValue& value : stage.check->values) {
      if (!value.passed) out += check_value_line(value) + "\n";
    }
    for (const std::string& note : stage.check->notes) out += note + "\n";
  }
  return out;
}

// The earlier tries of a stage --retries ran again, as Maven Surefire writes them: flakyFailure
// or flakyError when the stage passed in the end (FLAKY), rerunFailure or rerunError when not.
std::string attempt_elements(const StageReport& stage) {
  const std::string prefix = stage.result == run::Status::kFlaky ? "flaky" : "rerun";
  std::string out;
  for (const AttemptReport& attempt : stage.attempts) {
    const std::string element = prefix + (attempt.result == run::Status::kFail ? "Failure" : "Error");
    const std::string trace =
        attempt.log_tail.empty() ? "" : fmt::format("last lines of {}:\n{}", attempt.log, attempt.log_tail);
    out += fmt::format("      <{0} message=\"{1}\" type=\"{2}\"><stackTrace>{3}</stackTrace></{0}>\n", element,
                       attr(attempt.reason), run::to_string(attempt.result), text(trace));
  }
  return out;
}

std::string outcome_element(const StageReport& stage) {
  const run::Status status = stage.result;
  if (run::is_passed(status)) return attempt_elements(stage);
  if (status == run::Status::kUnsupported || status == run::Status::kSkipped) {
    return fmt::format("      <skipped message=\"{}\"/>\n", attr(message(stage)));
  }
  const char* element = status == run::Status::kFail ? "failure" : "error";
  return fmt::format("      <{0} message=\"{1}\" type=\"{2}\">{3}</{0}>\n", element, attr(failure_message(stage)),
                     run::to_string(status), text(failure_text(stage))) +
         attempt_elements(stage);
}

// A stage that failed: its command, where it ran, its log and the log's last lines.
std::string failure_output(const StageReport& stage) {
  if (!needs_attention(stage.result)) return "";
  std::string out =
      fmt::format("command: {}\ncwd: {}\nlog: {}\n", plan::join_shell_words(stage.argv), stage.cwd, stage.log);
  if (!stage.log_tail.empty()) out += fmt::format("last lines of the log:\n{}", stage.log_tail);
  return out;
}

// The cluster job that ran the stage, its GPU warnings, a check's values, and a failure's
// command and log tail.
std::string system_out(const StageReport& stage) {
  std::string lines;
  if (run::is_passed(stage.result) && stage.earlier_run) lines += earlier_run_note(stage) + "\n";
  if (!stage.job_id.empty()) lines += cluster_job_label(stage.job_id, stage.nodes) + "\n";
  for (const std::string& warning : stage.gpu_warnings) lines += "GPU warning: " + warning + "\n";
  if (stage.check) {
    for (const CheckValue& value : stage.check->values) lines += check_value_line(value) + "\n";
  }
  lines += failure_output(stage);
  return lines.empty() ? "" : fmt::format("      <system-out>{}</system-out>\n", text(lines));
}

using Property = std::pair<std::string, std::string>;

void add_number(std::vector<Property>& properties, const std::string& name, const std::optional<double>& value) {
  if (value) properties.emplace_back(name, fmt::format("{}", *value));
}

void add_figure(std::vector<Property>& properties, const std::string& name, const std::optional<FigureStats>& stats) {
  if (!stats) return;
  add_number(properties, name + ".median", stats->median);
  add_number(properties, name + ".mean", stats->mean);
}

// A stage's benchmark figures (report.json's metrics.benchmark and metrics.timings), as
// CI tools that chart properties of test cases read them.
std::vector<Property> figure_properties(const StageMetrics& metrics) {
  std::vector<Property> properties;
  if (const auto& b = metrics.benchmark) {
    add_figure(properties, "ips", b->ips);
    if (b->ips && !b->ips_unit.empty()) properties.emplace_back("ips.unit", b->ips_unit);
    add_figure(properties, "batch_cost_s", b->batch_cost_s);
    add_figure(properties, "reader_cost_s", b->reader_cost_s);
    add_number(properties, "max_mem_reserved_mb", b->max_mem_reserved_mb);
    add_number(properties, "max_mem_allocated_mb", b->max_mem_allocated_mb);
  }
  if (const auto& t = metrics.timings) {
    for (const auto& [name, value] :
         {std::pair{"preprocess_ms", &t->preprocess_ms}, std::pair{"inference_ms", &t->inference_ms},
          std::pair{"postprocess_ms", &t->postprocess_ms}, std::pair{"total_ms", &t->total_ms},
          std::pair{"cpu_rss_mb", &t->cpu_rss_mb}, std::pair{"gpu_rss_mb", &t->gpu_rss_mb},
          std::pair{"gpu_util_percent", &t->gpu_util_percent}}) {
      add_number(properties, name, *value);
    }
  }
  return properties;
}

// The driver's figures of the stage's GPUs (report.json's "gpu"): "gpu_" and the key.
void add_gpu_properties(std::vector<Property>& properties, const run::GpuFigures& gpu) {
  for (const GpuFigureField& field : kGpuFigureFields) {
    add_number(properties, std::string("gpu_") + field.key, gpu.*field.value);
  }
  if (!gpu.throttle_reasons.empty()) {
    properties.emplace_back("gpu_throttle_reasons", fmt::format("{}", fmt::join(gpu.throttle_reasons, ",")));
  }
}

// pytest's JUnit XML (junit_family xunit1) writes a test case's properties first; Jenkins'
// JUnit plugin and GitLab read them there.
std::string testcase_properties(const StageReport& stage) {
  std::vector<Property> properties = figure_properties(stage.metrics);
  add_gpu_properties(properties, stage.gpu);
  if (properties.empty()) return "";
  std::string out = "      <properties>\n";
  for (const auto& [name, value] : properties) {
    out += fmt::format("        <property name=\"{}\" value=\"{}\"/>\n", attr(name), attr(value));
  }
  return out + "      </properties>\n";
}

std::string testcase(const PlanReport& plan, const StageReport& stage) {
  const std::string start =
      fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"", attr(class_name(plan.config, plan.mode)),
                  attr(stage.id), junit_time(stage.seconds.value_or(0)));
  const std::string body = testcase_properties(stage) + outcome_element(stage) + system_out(stage);
  return body.empty() ? start + "/>\n" : start + ">\n" + body + "    </testcase>\n";
}

// The run's verdict and why (the stages that could not run, grouped as in every report) are
// properties of every testsuite: a CI page that shows one suite shows whether the run was partial.
std::string properties(const PlanReport& plan, const run::RunVerdict& verdict) {
  const std::string headline = verdict.headline(), why = verdict.explanation();
  std::string out = "    <properties>\n";
  for (const auto& [name, value] :
       {std::pair{"model", &plan.model}, std::pair{"dialect", &plan.dialect}, std::pair{"output_dir", &plan.output_dir},
        std::pair{"verdict", &headline}, std::pair{"verdict_explanation", &why}}) {
    out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, attr(*value));
  }
  return out + "    </properties>\n";
}

std::string timestamp_attribute(const RunReport& report) {
  if (!report.started) return "";
  return fmt::format(" timestamp=\"{:%Y-%m-%dT%H:%M:%S}\"", fmt::gmtime(static_cast<std::time_t>(*report.started)));
}

std::string testsuite(const RunReport& report, const PlanReport& plan, const run::RunVerdict& verdict,
                      Totals& run_totals) {
  Totals totals;
  std::string cases;
  for (const StageReport& stage : plan.stages) {
    totals.add(stage);
    cases += testcase(plan, stage);
  }
  run_totals.add(totals);
  return fmt::format("  <testsuite name=\"{}\" {} skipped=\"{}\" time=\"{}\"{}>\n{}{}  </testsuite>\n",
                     attr(plan.config + " " + plan.mode), totals.attributes(), totals.skipped,
                     junit_time(plan_seconds(report, plan)), timestamp_attribute(report), properties(plan, verdict),
                     cases);
}

// The configs left out as invalid: one <error> testcase per problem, named FILE:LINE.
std::string invalid_configs_suite(const RunReport& report, Totals& run_totals) {
  if (report.invalid_configs.empty()) return "";
  std::string cases;
  for (const ConfigProblem& problem : report.invalid_configs) {
    const std::string where = problem.line > 0 ? fmt::format("{}:{}", problem.file, problem.line) : problem.file;
    cases += fmt::format(
        "    <testcase classname=\"invalid-config\" name=\"{}\" time=\"0.000\">\n"
        "      <error message=\"{}\" type=\"invalid config\">{}</error>\n    </testcase>\n",
        attr(where), attr(problem.message), text(fmt::format("{}: {}", where, problem.message)));
  }
  const int n = static_cast<int>(report.invalid_configs.size());
  run_totals.tests += n;
  run_totals.errors += n;
  return fmt::format(
      "  <testsuite name=\"invalid configs\" tests=\"{0}\" failures=\"0\" errors=\"{0}\" skipped=\"0\" "
      "time=\"0.000\">\n{1}  </testsuite>\n",
      n, cases);
}

// The failing regressions against the baseline (--baseline), which fail the run: one failing
// testcase per regressed stage result or figure, named "STAGE FIGURE" in its config's class.
std::string baseline_suite(const RunReport& report, Totals& run_totals) {
  if (!report.baseline || report.baseline->regressions.empty()) return "";
  std::string cases;
  for (const BaselineRegression& r : report.baseline->regressions) {
    cases += fmt::format(
        "    <testcase classname=\"{}\" name=\"{}\" time=\"0.000\">\n"
        "      <failure message=\"{}\" type=\"REGRESSED\">{}</failure>\n    </testcase>\n",
        attr(class_name(r.config, r.mode)), attr(r.stage + " " + r.figure), attr(regression_line(r)),
        text(fmt::format("against {}: {}", report.baseline->baseline, regression_line(r))));
  }
  const int n = static_cast<int>(report.baseline->regressions.size());
  run_totals.tests += n;
  run_totals.failures += n;
  return fmt::format(
      "  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{1}\" errors=\"0\" skipped=\"0\" "
      "time=\"0.000\">\n{2}  </testsuite>\n",
      attr("regressions against " + report.baseline->baseline), n, cases);
}

}  // namespace

std::string render_junit_report(const RunReport& report) {
  Totals totals;
  std::string suites = invalid_configs_suite(report, totals);
  const run::RunVerdict verdict = report.verdict();
  for (const PlanReport& plan : report.plans) suites += testsuite(report, plan, verdict, totals);
  suites += baseline_suite(report, totals);
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tipc-run: {}\" {} time=\"{}\">\n{}"
      "</testsuites>\n",
      attr(verdict.headline()), totals.attributes(), junit_time(run_seconds(report)), suites);
}

}  // namespace tipc::report
