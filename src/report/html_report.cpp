#include "report/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

#include "core/plural.h"
#include "core/text.h"
#include "plan/shell_words.h"
#include "report/gpu_report.h"
#include "report/html_text.h"
#include "report/log_curve.h"
#include "report/report_text.h"
#include "report/svg_chart.h"
#include "report/trend_html.h"
#include "run/outcome.h"

namespace tipc::report {
namespace {

// Every colour of the page lives here; the charts only name classes (svg_chart.h).
constexpr std::string_view kStylesheet = R"css(
:root{color-scheme:light;--ink:#1f2328;--muted:#59636e;--line:#d8dee4;--soft:#f6f8fa;
--pass:#1a7f37;--fail:#cf222e;--timeout:#bc4c00;--unresolved:#8250df;--unsupported:#6e7781;--skipped:#8c959f;
--interrupted:#9a6700}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",Arial,sans-serif;
color:var(--ink);background:#fff}
code,pre{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
a{color:#0969da}
.banner{color:#fff;padding:22px 32px 18px}
.banner.pass{background:var(--pass)}.banner.fail{background:var(--fail)}.banner.interrupted{background:var(--interrupted)}
.banner.partial{background:var(--interrupted)}.banner.nothing{background:var(--unsupported)}
.banner .why{margin:0 0 8px;font-weight:600}
.banner .tool{font-size:12px;letter-spacing:.08em;text-transform:uppercase;opacity:.85}
.banner h1{margin:0 0 8px;font-size:32px;letter-spacing:.03em}
.banner .count{display:inline-block;margin:0 6px 4px 0;padding:2px 10px;border-radius:999px;
background:rgba(255,255,255,.18);font-weight:600;font-size:13px}
main{max-width:1240px;margin:0 auto;padding:4px 32px 40px}
.overview{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:12px;margin:20px 0 8px}
.stat{border:1px solid var(--line);border-radius:8px;padding:10px 14px;background:var(--soft)}
.stat .label{display:block;color:var(--muted);font-size:11.5px;text-transform:uppercase;letter-spacing:.06em}
.stat .value{font-size:15px;font-weight:600;overflow-wrap:anywhere}
nav.contents ul{margin:6px 0;padding-left:20px}
nav.contents li{margin:2px 0}
section.plan{margin-top:34px;border-top:3px solid var(--line);padding-top:6px}
h2{font-size:22px;margin:12px 0 2px;overflow-wrap:anywhere}
h3{font-size:17px;margin:30px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h4{font-size:14px;margin:18px 0 8px;overflow-wrap:anywhere}
.meta{color:var(--muted);margin:0 0 12px;overflow-wrap:anywhere}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;font-size:13px}
th{text-align:left;color:var(--muted);font-weight:600;border-bottom:2px solid var(--line);padding:6px 8px;white-space:nowrap}
td{border-bottom:1px solid var(--line);padding:6px 8px;vertical-align:top}
tbody tr:nth-child(even) td{background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}th.num{white-space:normal}
.wide{overflow-x:auto;max-width:100%}td.id{min-width:17em}td svg.bar{width:150px;height:auto}
td code{overflow-wrap:anywhere}
td.reason{max-width:360px;overflow-wrap:anywhere}
.result{display:inline-block;min-width:96px;padding:1px 8px;border-radius:999px;color:#fff;text-align:center;
font-size:11.5px;font-weight:700;letter-spacing:.04em}
.result.pass{background:var(--pass)}.result.fail{background:var(--fail)}.result.timeout{background:var(--timeout)}
.result.unresolved{background:var(--unresolved)}.result.unsupported{background:var(--unsupported)}
.result.skipped{background:var(--skipped)}.result.flaky{background:var(--timeout)}
.tag{display:inline-block;margin-left:6px;padding:0 6px;border:1px solid var(--line);border-radius:4px;
font-size:11px;color:var(--muted)}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(500px,1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px 12px 4px;background:#fff}
figcaption{font-weight:600;overflow-wrap:anywhere}
svg.chart{display:block;width:100%;height:auto}
svg text{font-family:system-ui,"DejaVu Sans",Arial,sans-serif}
.tick{font-size:11px;fill:var(--muted)}.axis-label{font-size:12px;fill:var(--ink)}.legend{font-size:11px;fill:var(--ink)}
.grid{stroke:#eaeef2}.axis{stroke:#8c959f}
.line{fill:none;stroke:var(--c);stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}
.dot,.swatch,.segment{fill:var(--c)}
.area{fill:var(--c);stroke:var(--c);fill-opacity:.3;stroke-width:1.4}.area.hist-candidate{fill-opacity:.12;stroke-width:1.8}
.series-0,.hist-reference{--c:#0072b2}.series-1,.hist-candidate{--c:#d55e00}.series-2{--c:#009e73}
.series-3{--c:#cc79a7}.series-4{--c:#e69f00}.series-5{--c:#56b4e9}.series-6{--c:#3b3b3b}
.seg-pre{--c:#56b4e9}.seg-infer{--c:#0072b2}.seg-post{--c:#e69f00}
.track{fill:#eaeef2}.gauge-pass{fill:var(--pass)}.gauge-fail{fill:var(--fail)}.limit{stroke:var(--ink);stroke-width:2}
svg.bar,svg.gauge{display:block}
.key{margin:0 0 8px;color:var(--muted);font-size:12.5px}
.key span.swatch{display:inline-block;width:12px;height:12px;margin:0 5px 0 14px;border-radius:2px;
vertical-align:-1px;background:var(--c)}
.key span.swatch:first-child{margin-left:0}
.kv{display:inline-block;margin-right:18px;white-space:nowrap}.kv b{color:var(--muted);font-weight:600;margin-right:5px}
.check{margin:8px 0 22px}
ul.notes{margin:8px 0;padding-left:20px;color:var(--muted)}
details.more{margin:8px 0 14px}details.more summary{cursor:pointer;color:var(--muted);padding:6px 0}
details.failure{border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px;margin:12px 0;
padding:0 14px 12px}
details.failure summary{cursor:pointer;padding:10px 0;font-weight:600;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:2px 0 8px}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
pre.log{margin:6px 0 0;padding:12px 14px;border-radius:6px;background:#0d1117;color:#e6edf3;max-height:520px;
overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.45}
section.attention{margin:20px 0 8px;border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px;
padding:2px 14px 10px}section.attention h2{font-size:18px;margin:10px 0 8px}
td.error code{white-space:pre-wrap}td.stage{min-width:14em}
section.gpu-warnings{border-left-color:var(--timeout)}.gpu-warning{color:var(--timeout);overflow-wrap:anywhere}
.gpu-figures{color:var(--muted);font-size:12px;white-space:nowrap}
.tag.throttled{border-color:var(--timeout);color:var(--timeout)}
ol.stack{margin:4px 0 0;padding-left:22px}ol.stack code{white-space:pre-wrap}
.trend-regressed{--c:var(--fail)}.trend-baseline{--c:var(--ink)}
circle.point{fill:var(--c);stroke:#fff;stroke-width:1}circle.point.trend-current{stroke:var(--ink);stroke-width:1.6}
circle.ring{fill:none;stroke:var(--c);stroke-width:1.6}.baseline-mark{stroke:var(--c);stroke-dasharray:4 3}
footer{border-top:1px solid var(--line);padding:14px 32px;color:var(--muted);font-size:12px;text-align:center}
@media print{pre.log{max-height:none}.banner{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
)css";

// The page may load nothing: a file mailed or archived must look the same everywhere.
constexpr std::string_view kContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'";

constexpr std::string_view kNone = "&#8212;";  // an em dash for a missing value
// A check with more values shows its headline values (every failing one, or the few
// nearest their limits) and folds the full list.
constexpr std::size_t kCheckValuesShownWhole = 8;
constexpr std::size_t kNearestValuesShown = 3;

using Html = std::string;

// ---- values ----

Html milliseconds(const std::optional<double>& ms) { return ms ? fmt::format("{:.3f}", *ms) : Html(kNone); }
Html megabytes(const std::optional<double>& mb) { return mb ? fmt::format("{:.0f}", *mb) : Html(kNone); }

std::string duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
  return fmt::format("{} h {:02} min", whole / 3600, whole % 3600 / 60);
}

std::string utc_time(double unix_seconds) {
  const auto seconds = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                     parts.tm_hour, parts.tm_min, parts.tm_sec);
}

// Escaped text that may wrap after `/`, `_` and `.`: stage ids and log names are long words.
Html breakable(std::string_view text) {
  Html html;
  for (const char c : html_escape(text)) {
    html += c;
    if (c == '/' || c == '_' || c == '.') html += "<wbr>";
  }
  return html;
}

// A result this version does not know counts as a failure, as in RunReport::exit_code.
Html result_pill(run::Status result) {
  return fmt::format("<span class=\"result {}\">{}</span>", lower(run::to_string(result)), run::to_string(result));
}

std::string tail_anchor(std::size_t plan, std::size_t stage) { return fmt::format("tail-{}-{}", plan, stage); }

// Relative to the report's directory: the links work in a copy of the tree (the bundle).
Html log_link(const std::string& path, const std::string& report_dir) {
  if (path.empty()) return Html(kNone);
  const std::string name = std::filesystem::path(path).filename().string();
  return fmt::format("<a href=\"{}\" title=\"{}\">{}</a>", html_escape(relative_url(path, report_dir)),
                     html_escape(path), breakable(name));
}

// `label`: the plan's config label (plan_labels): a suite's configs are told apart by it.
Html plan_title(const PlanReport& plan, const std::string& label) {
  return html_escape(label) + " <span class=\"muted\">&#183; " + html_escape(plan.mode) + "</span>";
}

// ---- run overview ----

std::size_t stage_count(const RunReport& report) {
  std::size_t total = 0;
  for (const auto& plan : report.plans) total += plan.stages.size();
  return total;
}

Html status_counts(const RunReport& report) {
  Html html;
  for (const auto status : run::kAllStatuses) {
    if (const int n = report.count(status)) {
      html += fmt::format("<span class=\"count\">{} {}</span>", n, run::to_string(status));
    }
  }
  return html;
}

// A partial pass or a run in which nothing ran has a colour of its own: it must not look like a pass.
const char* banner_class(run::VerdictKind kind) {
  switch (kind) {
    case run::VerdictKind::kPass: return "pass";
    case run::VerdictKind::kPartial: return "partial";
    case run::VerdictKind::kNothingRan: return "nothing";
    case run::VerdictKind::kInterrupted: return "interrupted";
    default: return "fail";
  }
}

Html banner(const RunReport& report, const run::RunVerdict& verdict) {
  const std::string why = verdict.explanation();
  return fmt::format(
      "<header class=\"banner {}\">\n<div class=\"tool\">tipc-run report</div>\n<h1>{}</h1>\n{}"
      "<div class=\"counts\"><span class=\"count\">{}</span>{}</div>\n</header>\n",
      banner_class(verdict.kind), html_escape(verdict.headline()),
      why.empty() ? Html() : "<p class=\"why\">" + html_escape(why) + "</p>\n", plural(stage_count(report), "stage"),
      status_counts(report));
}

Html stat(std::string_view label, const Html& value) {
  return fmt::format("<div class=\"stat\"><span class=\"label\">{}</span><span class=\"value\">{}</span></div>\n",
                     label, value);
}

Html run_duration(const RunReport& report) {
  if (report.started && report.finished) return duration(*report.finished - *report.started);
  return report.interrupted ? "interrupted" : "cut short";
}

Html overview(const RunReport& report) {
  Html html = "<section class=\"overview\">\n";
  html += stat("Started", report.started ? utc_time(*report.started) : Html(kNone));
  html += stat("Finished", report.finished ? utc_time(*report.finished) : Html("not finished"));
  html += stat("Duration", run_duration(report));
  html += stat("Configs", fmt::format("{} ({})", report.plans.size(), plural(stage_count(report), "stage")));
  html += stat("Jobs", std::to_string(report.jobs));
  html += stat("GPUs", html_escape(gpus_text(gpu_names(given_gpu_devices(report), false), report.resources_source)));
  html += stat("tipc-run", html_escape(report.tool_version));
  if (!report.repo_root.empty()) html += stat("Repository", "<code>" + html_escape(report.repo_root) + "</code>");
  return html + "</section>\n";
}

Html plan_counts(const PlanReport& plan) {
  std::map<run::Status, int> counts;
  for (const auto& stage : plan.stages) ++counts[stage.result];
  std::vector<std::string> parts;
  for (const auto& [result, n] : counts) parts.push_back(fmt::format("{} {}", n, run::to_string(result)));
  return join(parts, ", ");
}

Html contents(const RunReport& report, const std::vector<std::string>& labels) {
  Html html = "<nav class=\"contents\"><h3>Configurations</h3><ul>\n";
  for (std::size_t p = 0; p < report.plans.size(); ++p) {
    html += fmt::format("<li><a href=\"#plan-{}\">{}</a> <span class=\"muted\">{}</span></li>\n", p + 1,
                        plan_title(report.plans[p], labels[p]), plan_counts(report.plans[p]));
  }
  return html + "</ul></nav>\n";
}

// ---- per plan: the stage table ----

// A table, or nothing when it has no rows.
Html table(std::string_view header_cells, const Html& rows) {
  if (rows.empty()) return "";
  // A wide table scrolls in its own box: the page never scrolls sideways.
  return fmt::format("<div class=\"wide\"><table><thead><tr>{}</tr></thead><tbody>\n{}</tbody></table></div>\n",
                     header_cells, rows);
}

// ---- what needs attention: right under the verdict ----

// A TIMEOUT's first frames where it hung (stack_dump.h); "" when its log held none.
Html stack_list(const StageReport& stage) {
  if (stage.stack.empty()) return "";
  Html items;
  for (const std::string& frame : stage.stack) items += "<li><code>" + html_escape(frame) + "</code></li>";
  return "<div class=\"muted\">where it hung, most recent call first:</div><ol class=\"stack\">" + items + "</ol>";
}

Html attention_row(const PlanReport& plan, const std::string& label, const StageReport& stage, std::size_t plan_index,
                   std::size_t stage_index, const std::string& report_dir) {
  const Html error =
      (stage.error_line.empty() ? html_escape(stage.reason) : "<code>" + html_escape(stage.error_line) + "</code>") +
      stack_list(stage);
  return fmt::format(
      "<tr><td>{}</td><td class=\"stage\"><a href=\"#{}\"><code>{}</code></a><div class=\"muted\">{}</div></td>"
      "<td class=\"error\">{}</td><td>{}</td></tr>\n",
      result_pill(stage.result), tail_anchor(plan_index, stage_index), breakable(stage.id), plan_title(plan, label),
      error, log_link(stage.log, report_dir));
}

// Every stage a reviewer must look at (needs_attention), each with its log's first error line.
Html attention(const RunReport& report, const std::vector<std::string>& labels) {
  Html rows;
  std::size_t n = 0;
  for (std::size_t p = 0; p < report.plans.size(); ++p) {
    const PlanReport& plan = report.plans[p];
    for (std::size_t s = 0; s < plan.stages.size(); ++s) {
      if (!needs_attention(plan.stages[s].result)) continue;
      rows += attention_row(plan, labels[p], plan.stages[s], p + 1, s, report.report_dir);
      ++n;
    }
  }
  if (rows.empty()) return "";
  return fmt::format("<section class=\"attention\" id=\"attention\">\n<h2>{} to look at</h2>\n", plural(n, "stage")) +
         table("<th>Result</th><th>Stage</th><th>First error line (the log's tail is below)</th><th>Log</th>", rows) +
         "</section>\n";
}

// What the driver showed on the stages' GPUs that was not their doing (another process's memory,
// the previous stage's not released), each once with the stages that had it: near the top, since
// such a stage's figures are not its own.
Html gpu_warnings_section(const RunReport& report, const std::vector<std::string>& labels) {
  constexpr std::size_t kNamedStages = 10;
  const std::vector<GpuWarningGroup> groups = gpu_warning_groups(report);
  Html rows;
  for (const GpuWarningGroup& group : groups) {
    std::vector<Html> stages;
    for (std::size_t i = 0; i < std::min(group.stages.size(), kNamedStages); ++i) {
      const auto& [plan, stage] = group.stages[i];
      const std::size_t p = static_cast<std::size_t>(plan - report.plans.data());
      stages.push_back(fmt::format("<code>{}</code> <span class=\"muted\">{}</span>", breakable(stage->id),
                                   plan_title(*plan, labels[p])));
    }
    if (group.stages.size() > kNamedStages) {
      stages.push_back(fmt::format("and {} more", group.stages.size() - kNamedStages));
    }
    rows += fmt::format("<tr><td class=\"gpu-warning\">{}</td><td class=\"stage\">{}</td></tr>\n",
                        html_escape(group.warning), join(stages, "<br>"));
  }
  if (rows.empty()) return "";
  return fmt::format("<section class=\"attention gpu-warnings\" id=\"gpu-warnings\">\n<h2>{}</h2>\n",
                     plural(groups.size(), "GPU warning")) +
         table("<th>What the driver showed</th><th>Stages</th>", rows) + "</section>\n";
}

// The failing regressions against the baseline (--baseline), which fail the run: beside the
// stages to look at.
Html regressions_section(const RunReport& report) {
  if (!report.baseline || report.baseline->regressions.empty()) return "";
  Html rows;
  for (const BaselineRegression& r : report.baseline->regressions) {
    rows += fmt::format(
        "<tr><td><span class=\"result fail\">REGRESSED</span></td><td class=\"stage\"><code>{}</code>"
        "<div class=\"muted\">{} &#183; {}</div></td><td>{}</td><td>{} &#8594; {}</td><td>{}</td><td>{}</td></tr>\n",
        breakable(r.stage), html_escape(r.config), html_escape(r.mode), html_escape(r.figure), html_escape(r.base),
        html_escape(r.current), html_escape(r.change), html_escape(r.why));
  }
  return fmt::format("<section class=\"attention\" id=\"regressions\">\n<h2>{} against {} (--baseline)</h2>\n",
                     plural(report.baseline->regressions.size(), "regression"),
                     html_escape(report.baseline->baseline)) +
         table(
             "<th>Result</th><th>Stage</th><th>Figure</th><th>Baseline &#8594; this "
             "run</th><th>Change</th><th>Why</th>",
             rows) +
         "</section>\n";
}

Html environment_section(const RunReport& report) {
  if (!report.environment) return "";
  Html facts;
  for (const auto& [label, text] : environment_facts(*report.environment, given_gpus(report))) {
    facts += fmt::format(
        "<dt>{}</dt><dd>{}</dd>", html_escape(label),
        label == "Command" || label == "Repository" ? "<code>" + html_escape(text) + "</code>" : html_escape(text));
  }
  return "<section class=\"environment\" id=\"environment\">\n<h3>Environment</h3>\n<dl class=\"facts\">" + facts +
         "</dl>\n</section>\n";
}

Html reason_cell(const StageReport& stage, std::size_t plan_index, std::size_t stage_index) {
  Html html = html_escape(stage.reason);
  if (stage.signal) html += fmt::format(" <span class=\"tag\">signal {}</span>", *stage.signal);
  if (run::is_failure(stage.result)) {
    html += fmt::format(" <a href=\"#{}\">log tail</a>", tail_anchor(plan_index, stage_index));
  }
  for (const std::string& warning : stage.gpu_warnings) {
    html += "<div class=\"gpu-warning\">&#9888; " + html_escape(warning) + "</div>";
  }
  return html;
}

// The GPUs a stage ran on, and under them what the driver measured there while it ran.
Html gpus_cell(const StageReport& stage) {
  Html html = stage.gpus.empty() ? Html(kNone) : html_escape(join(stage.gpus, ", "));
  if (const std::string figures = gpu_figures_text(stage.gpu); !figures.empty()) {
    html += "<div class=\"gpu-figures\">" + html_escape(figures) + "</div>";
  }
  if (const std::string throttled = throttle_text(stage.gpu); !throttled.empty()) {
    html += "<span class=\"tag throttled\">" + html_escape(throttled) + "</span>";
  }
  return html;
}

// The logs of a stage's earlier tries (--retries): "attempt 1: FAIL" each, linked.
Html attempt_tags(const StageReport& stage, const std::string& report_dir) {
  Html tags;
  for (std::size_t i = 0; i < stage.attempts.size(); ++i) {
    const AttemptReport& attempt = stage.attempts[i];
    tags += fmt::format("<span class=\"tag\"><a href=\"{}\" title=\"{}\">attempt {}</a>: {}</span>",
                        html_escape(relative_url(attempt.log, report_dir)), html_escape(attempt.reason), i + 1,
                        run::to_string(attempt.result));
  }
  return tags;
}

Html stage_row(const StageReport& stage, std::size_t plan_index, std::size_t stage_index,
               const std::string& report_dir) {
  Html tags = stage.resumed ? "<span class=\"tag\">resumed</span>" : "";
  tags += attempt_tags(stage, report_dir);
  if (stage.earlier_run && !stage.resumed)
    tags += "<span class=\"tag\">" + html_escape(earlier_run_note(stage)) + "</span>";
  if (!stage.job_id.empty()) {
    tags += "<span class=\"tag\">" + html_escape(cluster_job_label(stage.job_id, stage.nodes)) + "</span>";
  }
  return fmt::format(
      "<tr><td><code>{}</code></td><td>{}</td><td>{}{}</td><td class=\"num\">{}</td><td>{}</td>"
      "<td class=\"reason\">{}</td><td>{}</td></tr>\n",
      breakable(stage.id), plan::to_string(stage.kind), result_pill(stage.result), tags,
      stage.seconds ? duration(*stage.seconds) : Html(kNone), gpus_cell(stage),
      reason_cell(stage, plan_index, stage_index),
      stage.started ? log_link(stage.log, report_dir) : Html(kNone));  // no log: no dead link
}

// UNSUPPORTED, or SKIPPED before it started: nothing to read but the reason.
bool did_not_run(const StageReport& stage) { return !stage.started && !run::is_failure(stage.result); }

Html stage_rows(const PlanReport& plan, std::size_t plan_index, bool ran, const std::string& report_dir) {
  Html rows;
  for (std::size_t s = 0; s < plan.stages.size(); ++s) {
    if (did_not_run(plan.stages[s]) != ran) rows += stage_row(plan.stages[s], plan_index, s, report_dir);
  }
  return rows;
}

Html stages_table(const Html& rows) {
  return table(
      "<th>Stage</th><th>Kind</th><th>Result</th><th class=\"num\">Duration</th><th>GPUs</th><th>Reason</th>"
      "<th>Log</th>",
      rows);
}

// The stages that ran (or failed to) in a table; those that did not run folded below it,
// so that a CPU run of a GPU matrix does not bury its results under dozens of rows.
Html stage_table(const PlanReport& plan, std::size_t plan_index, const std::string& report_dir) {
  const std::size_t not_run = std::count_if(plan.stages.begin(), plan.stages.end(), did_not_run);
  Html html = stages_table(stage_rows(plan, plan_index, true, report_dir));
  if (not_run == 0) return html;
  std::map<run::Status, int> results;
  for (const auto& stage : plan.stages) results[stage.result] += did_not_run(stage) ? 1 : 0;
  std::vector<std::string> parts;
  for (const auto& [result, n] : results) {
    if (n > 0) parts.push_back(fmt::format("{} {}", n, run::to_string(result)));
  }
  return html + fmt::format(
                    "<details class=\"more not-run\"><summary>{} did not run ({})</summary>\n{}"
                    "</details>\n",
                    plural(not_run, "stage"), join(parts, ", "),
                    stages_table(stage_rows(plan, plan_index, false, report_dir)));
}

// ---- per plan: train curves ----

struct MetricChart {
  std::string metric;
  std::vector<ChartSeries> series;  // one per rank
};

// One chart per metric, its ranks as series, in the order the log first showed them.
std::vector<MetricChart> charts_of(const StageMetrics& metrics) {
  std::vector<MetricChart> charts;
  for (const auto& curve : metrics.curves) {
    const CurveNameParts name = split_curve_name(curve.name);
    const auto same_metric = [&](const MetricChart& chart) { return chart.metric == name.metric; };
    auto chart = std::find_if(charts.begin(), charts.end(), same_metric);
    if (chart == charts.end()) chart = charts.insert(charts.end(), MetricChart{name.metric, {}});
    const std::string label = name.rank ? fmt::format("rank {}", *name.rank) : name.metric;
    chart->series.push_back({label, curve.points});
  }
  return charts;
}

Html figure(const Html& caption, const Html& svg) {
  return "<figure><figcaption>" + caption + "</figcaption>\n" + svg + "</figure>\n";
}

Html train_curves(const StageReport& stage) {
  Html html = "<h4><code>" + breakable(stage.id) + "</code></h4>\n<div class=\"charts\">\n";
  for (const auto& chart : charts_of(stage.metrics)) {
    html += figure(html_escape(chart.metric), svg_line_chart(chart.series, "iteration", chart.metric));
  }
  return html + "</div>\n";
}

// ---- per plan: sections built from some of its stages ----

using StagePredicate = std::function<bool(const StageReport&)>;
using StageRenderer = std::function<Html(const StageReport&, std::size_t stage_index)>;

// What `render` makes of the stages `wanted` selects, in plan order.
Html render_selected(const PlanReport& plan, const StagePredicate& wanted, const StageRenderer& render) {
  Html html;
  for (std::size_t s = 0; s < plan.stages.size(); ++s) {
    if (wanted(plan.stages[s])) html += render(plan.stages[s], s);
  }
  return html;
}

// A section only where it has content.
Html titled(std::string_view title, const Html& body) {
  return body.empty() ? Html() : fmt::format("<h3>{}</h3>\n", title) + body;
}

Html optional_text(const std::optional<std::string>& text) { return text ? html_escape(*text) : Html(kNone); }
Html optional_int(const std::optional<int>& value) { return value ? std::to_string(*value) : Html(kNone); }

// ---- evaluation results ----

Html evaluation_row(const StageReport& stage) {
  Html values;
  for (const auto& [name, value] : stage.metrics.final_values) {
    values += fmt::format("<span class=\"kv\"><b>{}</b>{}</span>", html_escape(name), format_number(value));
  }
  return fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n", breakable(stage.id),
                     result_pill(stage.result), values);
}

Html evaluation_results(const PlanReport& plan) {
  const Html rows = render_selected(
      plan, [](const StageReport& s) { return s.kind != plan::StageKind::kTrain && !s.metrics.final_values.empty(); },
      [](const StageReport& s, std::size_t) { return evaluation_row(s); });
  return titled("Evaluation", table("<th>Stage</th><th>Result</th><th>Values</th>", rows));
}

// ---- inference latency ----

double per_batch_ms(const InferenceTimings& t) {
  return t.preprocess_ms.value_or(0) + t.inference_ms.value_or(0) + t.postprocess_ms.value_or(0);
}

Html latency_bar(const InferenceTimings& t, double full_scale) {
  const auto segment = [](const std::optional<double>& ms, const char* css_class, const char* name) {
    return BarSegment{ms.value_or(0), css_class, fmt::format("{} {:.3f} ms", name, ms.value_or(0))};
  };
  return svg_stacked_bar({segment(t.preprocess_ms, "segment seg-pre", "preprocess"),
                          segment(t.inference_ms, "segment seg-infer", "inference"),
                          segment(t.postprocess_ms, "segment seg-post", "postprocess")},
                         full_scale);
}

Html latency_row(const StageReport& stage, double full_scale) {
  const InferenceTimings& t = *stage.metrics.timings;
  return fmt::format(
      "<tr><td class=\"id\"><code>{}</code></td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td "
      "class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
      breakable(stage.id), optional_text(t.device), optional_text(t.precision), optional_int(t.batch_size),
      optional_int(t.cpu_threads), milliseconds(t.preprocess_ms), milliseconds(t.inference_ms),
      milliseconds(t.postprocess_ms), latency_bar(t, full_scale), milliseconds(t.total_ms), megabytes(t.cpu_rss_mb),
      megabytes(t.gpu_rss_mb));
}

Html inference_latency(const PlanReport& plan) {
  const auto has_timings = [](const StageReport& s) { return s.metrics.timings.has_value(); };
  double full_scale = 0;
  for (const auto& stage : plan.stages) {
    if (has_timings(stage)) full_scale = std::max(full_scale, per_batch_ms(*stage.metrics.timings));
  }
  const Html rows =
      render_selected(plan, has_timings, [&](const StageReport& s, std::size_t) { return latency_row(s, full_scale); });
  if (rows.empty()) return "";
  const Html key =
      "<p class=\"key\"><span class=\"swatch seg-pre\"></span>preprocess<span class=\"swatch seg-infer\"></span>"
      "inference<span class=\"swatch seg-post\"></span>postprocess &#8212; milliseconds per batch as AutoLog "
      "logged them; total is the whole run</p>\n";
  return titled("Inference latency",
                key + table("<th>Stage</th><th>Device</th><th>Precision</th><th class=\"num\">Batch</th>"
                            "<th class=\"num\">Threads</th><th class=\"num\">Pre (ms)</th>"
                            "<th class=\"num\">Inference (ms)</th><th class=\"num\">Post (ms)</th><th>Per batch</th>"
                            "<th class=\"num\">Total (ms)</th><th class=\"num\">CPU RSS (MB)</th>"
                            "<th class=\"num\">GPU memory (MB)</th>",
                            rows));
}

// ---- benchmark figures ----

// The median's and the mean's cells.
Html figure_cells(const std::optional<FigureStats>& stats, int decimals) {
  if (!stats) return fmt::format("<td class=\"num\">{0}</td><td class=\"num\">{0}</td>", kNone);
  return fmt::format("<td class=\"num\">{:.{}f}</td><td class=\"num\">{:.{}f}</td>", stats->median, decimals,
                     stats->mean, decimals);
}

Html benchmark_row(const StageReport& stage) {
  const BenchmarkFigures& b = *stage.metrics.benchmark;
  return fmt::format(
      "<tr><td class=\"id\"><code>{}</code></td><td>{}</td>{}<td>{}</td>{}{}<td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
      breakable(stage.id), result_pill(stage.result), figure_cells(b.ips, 2),
      b.ips_unit.empty() ? Html(kNone) : html_escape(b.ips_unit), figure_cells(b.batch_cost_s, 4),
      figure_cells(b.reader_cost_s, 4), megabytes(b.max_mem_reserved_mb), megabytes(b.max_mem_allocated_mb),
      b.ips ? std::to_string(b.ips->steps) : Html(kNone));
}

// ips over the logged steps, one series per rank, labelled as the train curves' are.
Html throughput_chart(const StageReport& stage) {
  const BenchmarkFigures& b = *stage.metrics.benchmark;
  StageMetrics ips;
  ips.curves = b.ips_curves;
  const std::string unit = b.ips_unit.empty() ? "ips" : "ips (" + b.ips_unit + ")";
  return figure("<code>" + breakable(stage.id) + "</code>",
                svg_line_chart(charts_of(ips).front().series, "logged step", unit));
}

Html benchmark_figures(const PlanReport& plan) {
  const auto has_figures = [](const StageReport& s) { return s.metrics.benchmark.has_value(); };
  const Html rows =
      render_selected(plan, has_figures, [](const StageReport& s, std::size_t) { return benchmark_row(s); });
  if (rows.empty()) return "";
  const Html charts = render_selected(
      plan, [](const StageReport& s) { return s.metrics.benchmark && !s.metrics.benchmark->ips_curves.empty(); },
      [](const StageReport& s, std::size_t) { return throughput_chart(s); });
  const Html key =
      "<p class=\"key\">Median and mean over the logged steps, each rank's first two (warm-up) left out when it "
      "logged more; costs in seconds per step, memory the largest logged, in MB</p>\n";
  return titled("Benchmark figures",
                key +
                    table("<th>Stage</th><th>Result</th><th class=\"num\">ips median</th>"
                          "<th class=\"num\">ips mean</th><th>Unit</th><th class=\"num\">Batch cost median (s)</th>"
                          "<th class=\"num\">Batch cost mean (s)</th><th class=\"num\">Reader cost median (s)</th>"
                          "<th class=\"num\">Reader cost mean (s)</th><th class=\"num\">Max reserved (MB)</th>"
                          "<th class=\"num\">Max allocated (MB)</th><th class=\"num\">Steps</th>",
                          rows) +
                    (charts.empty() ? Html() : "<div class=\"charts\">\n" + charts + "</div>\n"));
}

// ---- alignment checks ----

Html check_value_row(const CheckValue& value) {
  return fmt::format(
      "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
      html_escape(value.label), format_number(value.value), value.limit ? format_number(*value.limit) : Html(kNone),
      result_pill(value.passed ? run::Status::kPass : run::Status::kFail),
      value.limit ? svg_limit_gauge(value.value, *value.limit, value.passed) : Html(kNone));
}

Html histogram_figure(const HistogramPair& pair) {
  const Html svg = svg_histogram_chart(pair);
  return figure("<code>" + html_escape(pair.key) + "</code>",
                svg.empty() ? "<p class=\"muted\">The histogram data is malformed.</p>" : svg);
}

Html check_notes(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  Html html = "<ul class=\"notes\">";
  for (const auto& note : notes) html += "<li>" + html_escape(note) + "</li>";
  return html + "</ul>\n";
}

Html histogram_grid(const std::vector<HistogramPair>& histograms) {
  if (histograms.empty()) return "";
  Html html = "<div class=\"charts\">\n";
  for (const auto& pair : histograms) html += histogram_figure(pair);
  return html + "</div>\n";
}

Html check_values_table(const std::vector<const CheckValue*>& values) {
  Html rows;
  for (const CheckValue* value : values) rows += check_value_row(*value);
  return table(
      "<th>Value</th><th class=\"num\">Measured</th><th class=\"num\">Limit</th><th>Result</th>"
      "<th>Against the limit (log scale, bar = value / limit)</th>",
      rows);
}

Html check_values(const CheckDetails& check) {
  std::vector<const CheckValue*> all;
  for (const auto& value : check.values) all.push_back(&value);
  if (all.size() <= kCheckValuesShownWhole) return check_values_table(all);
  const auto headline = headline_values(check, all.size(), kNearestValuesShown);
  const bool failing = !headline.front()->passed;
  return fmt::format("<p class=\"key\">{} of {} values {}:</p>\n", headline.size(), all.size(),
                     failing ? "fail" : "passed; nearest their limits") +
         check_values_table(headline) +
         fmt::format("<details class=\"more\"><summary>all {} values</summary>\n{}</details>\n", all.size(),
                     check_values_table(all));
}

std::string check_anchor(std::size_t plan, std::size_t stage) { return fmt::format("check-{}-{}", plan, stage); }

Html same_failures_note(const PlanReport& plan, std::size_t plan_index, std::size_t earlier) {
  return fmt::format("<p class=\"muted\">Same failures as <a href=\"#{}\"><code>{}</code></a>.</p>\n",
                     check_anchor(plan_index, earlier), breakable(plan.stages[earlier].id));
}

Html check_block(const PlanReport& plan, std::size_t plan_index, std::size_t stage_index,
                 const std::optional<std::size_t>& earlier) {
  const StageReport& stage = plan.stages[stage_index];
  const CheckDetails& check = *stage.check;
  const Html body = earlier ? same_failures_note(plan, plan_index, *earlier)
                            : check_values(check) + check_notes(check.notes) + histogram_grid(check.histograms);
  return fmt::format("<div class=\"check\" id=\"{}\"><h4>{} <code>{}</code><span class=\"tag\">{}</span></h4>\n",
                     check_anchor(plan_index, stage_index), result_pill(stage.result), breakable(stage.id),
                     html_escape(check_kind_word(check))) +
         body + "</div>\n";
}

// ---- failures ----

Html exit_status(const StageReport& stage) {
  if (stage.signal) return fmt::format("killed by signal {}", *stage.signal);
  if (stage.exit_code) return fmt::format("exit code {}", *stage.exit_code);
  return "did not exit (never started, or stopped by tipc-run)";
}

Html command_line(const std::vector<std::string>& argv) {
  std::vector<std::string> words;
  for (const auto& word : argv) words.push_back(plan::quote_shell_word(word));
  return html_escape(join(words, " "));
}

// What its log told: the log checks that matched, a TIMEOUT's stack.
Html log_facts(const StageReport& stage) {
  Html html;
  if (!stage.log_findings.empty()) {
    html += "<dt>Log checks</dt><dd>" + html_escape(join(stage.log_findings, ", ")) + "</dd>";
  }
  if (!stage.stack.empty()) html += "<dt>Stack</dt><dd>" + stack_list(stage) + "</dd>";
  return html;
}

// `tail`: the log's last lines, or what stands for them.
Html failure_block(const StageReport& stage, const std::string& anchor, const Html& tail,
                   const std::string& report_dir) {
  return fmt::format(
      "<details class=\"failure\" id=\"{}\" open><summary>{} <code>{}</code> <span class=\"muted\">{}</span>"
      "</summary>\n<dl class=\"facts\"><dt>Command</dt><dd><code>{}</code></dd><dt>Directory</dt><dd><code>{}</code>"
      "</dd><dt>Status</dt><dd>{}</dd>{}<dt>Log</dt><dd>{}</dd></dl>\n{}</details>\n",
      anchor, result_pill(stage.result), breakable(stage.id), html_escape(stage.reason), command_line(stage.argv),
      html_escape(stage.cwd), exit_status(stage), log_facts(stage), log_link(stage.log, report_dir), tail);
}

// ---- the page ----

Html log_tail_block(const StageReport& stage) {
  return stage.log_tail.empty() ? Html("<p class=\"muted\">The log is empty or missing.</p>\n")
                                : "<pre class=\"log\">" + html_escape_log(stage.log_tail) + "</pre>\n";
}

// A check that failed like an earlier one refers to it, among the checks and the failures.
Html checks_and_failures(const PlanReport& plan, std::size_t plan_index, const std::string& report_dir) {
  const auto same_failures = checks_failed_like_earlier(plan);
  auto earlier = [&](std::size_t s) -> std::optional<std::size_t> {
    const auto it = same_failures.find(s);
    return it == same_failures.end() ? std::nullopt : std::optional(it->second);
  };
  const Html checks = render_selected(
      plan, [](const StageReport& s) { return s.check.has_value(); },
      [&](const StageReport&, std::size_t s) { return check_block(plan, plan_index, s, earlier(s)); });
  const Html failures = render_selected(
      plan, [](const StageReport& s) { return run::is_failure(s.result); },
      [&](const StageReport& s, std::size_t s_index) {
        const auto first = earlier(s_index);
        return failure_block(s, tail_anchor(plan_index, s_index),
                             first ? same_failures_note(plan, plan_index, *first) : log_tail_block(s), report_dir);
      });
  return titled("Alignment checks", checks) + titled("Failures", failures);
}

Html plan_section(const PlanReport& plan, const std::string& label, std::size_t plan_index,
                  const std::string& report_dir) {
  Html html = fmt::format(
      "<section class=\"plan\" id=\"plan-{}\">\n<h2>{}</h2>\n<p class=\"meta\">model <b>{}</b> &#183; dialect {}{} "
      "&#183; output <code>{}</code></p>\n",
      plan_index, plan_title(plan, label), html_escape(plan.model), html_escape(plan.dialect),
      plan.dialect_source.empty() ? "" : " <span class=\"muted\">(" + html_escape(plan.dialect_source) + ")</span>",
      html_escape(plan.output_dir));
  html += stage_table(plan, plan_index, report_dir);
  html += titled("Training curves", render_selected(
                                        plan, [](const StageReport& s) { return !s.metrics.curves.empty(); },
                                        [](const StageReport& s, std::size_t) { return train_curves(s); }));
  html += evaluation_results(plan);
  html += inference_latency(plan);
  html += benchmark_figures(plan);
  html += checks_and_failures(plan, plan_index, report_dir);
  return html + "</section>\n";
}

// The configs left out as invalid, one row per problem.
Html invalid_configs_section(const RunReport& report) {
  Html rows;
  for (const ConfigProblem& p : report.invalid_configs) {
    rows +=
        fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td><code>{}</code></td><td>{}</td></tr>\n",
                    breakable(p.file), p.line > 0 ? std::to_string(p.line) : Html(kNone), html_escape(p.key),
                    html_escape(p.message));
  }
  if (rows.empty()) return "";
  return "<section class=\"plan\" id=\"invalid-configs\">\n<h2>Invalid configs (left out of the run)</h2>\n" +
         table("<th>Config</th><th>Line</th><th>Key</th><th>Problem</th>", rows) + "</section>\n";
}

// A directory's configs whose chain takes none of the run's MODEs, each with its chain.
Html other_modes_section(const RunReport& report) {
  if (report.configs_in_other_modes.empty()) return "";
  Html rows;
  for (const auto& config : report.configs_in_other_modes) {
    rows += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n", breakable(config.file),
                        config.chain.empty() ? Html(kNone) : html_escape(config.chain),
                        html_escape(fmt::format("{}", fmt::join(config.modes, ", "))));
  }
  return fmt::format("<section class=\"plan\" id=\"other-modes\">\n<h2>{} in none of the MODEs</h2>\n",
                     plural(report.configs_in_other_modes.size(), "config")) +
         table("<th>Config</th><th>Chain</th><th>Its MODEs</th>", rows) + "</section>\n";
}

// The configs --exclude left out: given, and not run on purpose.
Html excluded_configs_section(const RunReport& report) {
  if (report.excluded_configs.empty()) return "";
  std::vector<Html> files;
  for (const auto& file : report.excluded_configs) files.push_back("<code>" + breakable(file) + "</code>");
  return fmt::format(
      "<section class=\"plan\" id=\"excluded-configs\">\n<h2>{} excluded (--exclude)</h2>\n<p>{}</p>\n"
      "</section>\n",
      plural(report.excluded_configs.size(), "config"), fmt::join(files, ", "));
}

}  // namespace

std::string html_page_head(std::string_view title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
      kContentSecurityPolicy, html_escape(title), kStylesheet);
}

std::string render_html_report(const RunReport& report) {
  const run::RunVerdict verdict = report.verdict();
  const std::vector<std::string> labels = plan_labels(report, false);  // plan_title adds the mode
  Html html = html_page_head("tipc-run report: " + verdict.headline()) + banner(report, verdict) + "<main>\n" +
              attention(report, labels) + gpu_warnings_section(report, labels) + regressions_section(report) +
              overview(report) + environment_section(report) + contents(report, labels) +
              invalid_configs_section(report) + excluded_configs_section(report) + other_modes_section(report);
  for (std::size_t p = 0; p < report.plans.size(); ++p) {
    html += plan_section(report.plans[p], labels[p], p + 1, report.report_dir);
  }
  if (report.trends) html += trend_section(*report.trends);
  return html + "</main>\n<footer>tipc-run " + html_escape(report.tool_version) + "</footer>\n</body>\n</html>\n";
}

}  // namespace tipc::report
