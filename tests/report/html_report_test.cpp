#include "report/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include <fmt/format.h>

#include "core/utf8.h"
#include "report/gpu_sample_run.h"
#include "support/realistic_run_report.h"
#include "support/sample_report.h"
#include "support/text_search.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::occurrences;

// The text between the first `start` after `from` and the `end` that follows it.
std::string between(const std::string& text, const std::string& from, const std::string& start,
                    const std::string& end) {
  const std::size_t anchor = text.find(from);
  const std::size_t begin = text.find(start, anchor == std::string::npos ? 0 : anchor);
  if (anchor == std::string::npos || begin == std::string::npos) return "";
  return text.substr(begin, text.find(end, begin) + end.size() - begin);
}

bool is_clean_utf8(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto c = decode_utf8(text, at);
    if (!c) return false;
    if ((c->code_point < 0x20 && c->code_point != '\n' && c->code_point != '\t') || c->code_point == 0x7F) return false;
    at += c->length;
  }
  return true;
}

// The page without the <wbr> break hints that long ids carry, to search for their text.
std::string rendered(const RunReport& report) {
  std::string html = render_html_report(report);
  for (std::size_t at = html.find("<wbr>"); at != std::string::npos; at = html.find("<wbr>", at)) html.erase(at, 5);
  return html;
}

StageReport hostile_stage() {
  StageReport stage = test::realistic::demo_stage("<script>alert(\"id\")</script>&amp;'x'", "infer", "FAIL", 1.0);
  stage.reason = "reason with <b>tags</b> & \"quotes\"";
  stage.log = "/tmp/a dir/<x>&\"y\".log";
  stage.argv = {"python3", "-c", "print('</pre><script>alert(1)</script>')"};
  stage.log_tail = std::string("line one <img src=x onerror=alert(1)>\n") + "bell\x07 nul" + std::string(1, '\0') +
                   " del\x7f\n" +
                   "\x1b[1;31mred\x1b[0m & invalid \xff\xfe utf-8 \xed\xa0\x80 surrogate \xc0\xaf overlong\n" +
                   "crlf\r\nprogress 10%\rprogress 20%\n</pre></details><script>alert(2)</script>\n";
  return stage;
}

RunReport hostile_report() {
  RunReport report = test::realistic::run_report();
  report.plans[0].stages.push_back(hostile_stage());
  report.plans[0].mode = "<mode>";
  report.tool_version = "0.1.0<script>";
  return report;
}

TEST(HtmlReport, IsOneSelfContainedDocument) {
  const std::string html = rendered(test::realistic::run_report());

  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(occurrences(html, "</html>"), 1u);
  EXPECT_NE(html.find("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  for (const std::string fetching : {"http://", "https://", "src=", "<link", "@import", "url(", "<script", "<img",
                                     "<iframe", "<object", "<embed", "xlink:href", "@font-face"}) {
    EXPECT_EQ(html.find(fetching), std::string::npos) << fetching;
  }
  EXPECT_TRUE(is_clean_utf8(html));
}

TEST(HtmlReport, AFlakyStageShowsItsResultAndLinksEachEarlierTrysLog) {
  const std::string html = render_html_report(test::sample_run_report_with_retries());
  EXPECT_NE(html.find("<span class=\"result flaky\">FLAKY</span>"), std::string::npos);
  EXPECT_NE(html.find("train.attempt1.log\" title=\"exit code 1\">attempt 1</a>: FAIL</span>"), std::string::npos);
  EXPECT_NE(html.find(">attempt 2</a>: TIMEOUT</span>"), std::string::npos);
  EXPECT_NE(html.find("1 FLAKY"), std::string::npos) << "the counts";
}

TEST(HtmlReport, ShowsTheVerdictCountsAndRunFacts) {
  const std::string html = rendered(test::realistic::run_report());

  EXPECT_NE(html.find("<header class=\"banner fail\">"), std::string::npos);
  EXPECT_NE(html.find("<h1>FAIL ("), std::string::npos) << "the headline with its count";
  EXPECT_NE(html.find("<span class=\"count\">12 stages</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"count\">7 PASS</span>"), std::string::npos);
  EXPECT_NE(html.find("2024-05-01 12:00:00 UTC"), std::string::npos);
  EXPECT_NE(html.find("2024-05-01 12:12:34 UTC"), std::string::npos);
  EXPECT_NE(html.find("12 min 34 s"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"value\">0, 1 (--gpus)</span>"), std::string::npos);
  // Each plan's title names its config once and its MODE once, beside it.
  for (const auto& plan : test::realistic::run_report().plans) {
    EXPECT_EQ(html.find(" " + plan.mode + " <span class=\"muted\">&#183; " + plan.mode), std::string::npos)
        << plan.mode;
  }
}

TEST(HtmlReport, NoGpusReadsNoneWithoutRepeatingIt) {
  RunReport report = test::realistic::run_report();
  report.gpus.clear();
  report.resources_source = "none";
  EXPECT_NE(rendered(report).find("<span class=\"label\">GPUs</span><span class=\"value\">none</span>"),
            std::string::npos);
}

TEST(HtmlReport, ACheckThatFailsLikeAnEarlierOneRefersToItInsteadOfRepeatingItsValues) {
  RunReport report = test::realistic::run_report();
  for (const std::string id : {"check/bs1", "check/bs4"}) {
    StageReport check = test::realistic::demo_stage(id, "check", "FAIL", 0.2);
    check.check =
        CheckDetails{CheckKind::kCompareResults, false, {{"circle_001.ppm", 0.0219, 0.0018, false}}, {}, {}, {}, {}};
    check.log_tail = "circle_001.ppm: |gt - pred| = 0.0219\n";
    report.plans[0].stages.push_back(check);
  }
  const std::string html = rendered(report);
  EXPECT_EQ(occurrences(html, "<code>circle_001.ppm</code>"), 1u);  // one values table
  EXPECT_EQ(occurrences(html, "circle_001.ppm: |gt - pred|"), 1u);  // one log tail
  const std::size_t first = report.plans[0].stages.size() - 2;
  const std::string reference =
      fmt::format("Same failures as <a href=\"#check-1-{}\"><code>check/bs1</code></a>.", first);
  EXPECT_EQ(occurrences(html, reference), 2u) << "among the checks and among the failures";
  EXPECT_NE(html.find(fmt::format("<div class=\"check\" id=\"check-1-{}\">", first)), std::string::npos);
}

TEST(HtmlReport, VerdictFollowsTheRun) {
  RunReport passed = test::realistic::run_report();
  passed.plans.resize(1);
  passed.plans[0].stages.resize(3);
  EXPECT_NE(rendered(passed).find("<h1>PASS</h1>"), std::string::npos);
  RunReport partial = passed;
  partial.plans[0].stages[2].result = run::Status::kUnsupported;
  partial.plans[0].stages[2].reason = "needs 1 GPU; 0 available (none)";
  const std::string html = rendered(partial);
  EXPECT_NE(html.find("<header class=\"banner partial\">"), std::string::npos) << "a partial pass is not green";
  EXPECT_NE(html.find("<h1>PASS (partial: 1 of 3 stages could not run)</h1>"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"why\">could not run: 1 stage: needs 1 GPU; 0 available (none)</p>"),
            std::string::npos);
  passed.interrupted = true;
  EXPECT_NE(rendered(passed).find("<header class=\"banner interrupted\">"), std::string::npos);
}

TEST(HtmlReport, EveryStageHasARowWithItsResultAndLogLink) {
  const RunReport report = test::realistic::run_report();
  const std::string html = rendered(report);

  for (const auto& plan : report.plans) {
    for (const auto& stage : plan.stages) EXPECT_NE(html.find("<code>" + stage.id + "</code>"), std::string::npos);
  }
  EXPECT_NE(html.find("<span class=\"result timeout\">TIMEOUT</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"result unsupported\">UNSUPPORTED</span>"), std::string::npos);
  const std::string output = "file:///work/demo/test_tipc/output/alexnet/lite_train_lite_infer/";
  EXPECT_NE(html.find("href=\"" + output + "train%20logs/train.log\""), std::string::npos);
}

TEST(HtmlReport, LogLinksAreRelativeToTheReportsDirectory) {
  RunReport report = test::realistic::run_report();
  report.report_dir = "/work/demo/test_tipc/output/alexnet/lite_train_lite_infer";
  const std::string html = rendered(report);
  EXPECT_EQ(html.find("file://"), std::string::npos);
  EXPECT_NE(html.find("href=\"train%20logs/train.log\""), std::string::npos);
  // Another plan's log, beside the report's directory.
  report.report_dir = "/work/demo/test_tipc/output/alexnet/whole_infer";
  EXPECT_NE(rendered(report).find("href=\"../lite_train_lite_infer/train%20logs/train.log\""), std::string::npos);
}

TEST(HtmlReport, AStageThatNeverStartedLinksNoLog) {
  RunReport report = test::realistic::run_report();
  const StageReport& unsupported = report.plans[0].stages[7];
  ASSERT_FALSE(unsupported.started);
  const std::string name = std::filesystem::path(unsupported.log).filename().string();
  EXPECT_EQ(rendered(report).find(name), std::string::npos);
}

TEST(HtmlReport, AFailingRunLeadsWithItsFailuresAndTheirErrorLines) {
  RunReport report = test::realistic::run_report();
  report.report_dir = "/work/demo/test_tipc/output/alexnet/lite_train_lite_infer";
  report.plans[0].stages[8].error_line = "cv2.error: OpenCV(4.6.0) parse error & <shape mismatch>";
  const std::string html = rendered(report);
  const std::string lead = between(html, "<main>", "<section class=\"attention\"", "</section>");
  ASSERT_FALSE(lead.empty());
  EXPECT_LT(html.find("<section class=\"attention\""), html.find("<section class=\"overview\""));
  EXPECT_NE(lead.find("<h2>3 stages to look at</h2>"), std::string::npos);  // init check, onnx infer, timeout
  EXPECT_EQ(occurrences(lead, "<tr><td><span class=\"result "), 3u);
  EXPECT_NE(lead.find("<code>cv2.error: OpenCV(4.6.0) parse error &amp; &lt;shape mismatch&gt;</code>"),
            std::string::npos);
  EXPECT_NE(lead.find("timed out after 120 s"), std::string::npos);  // no error line: its reason
  EXPECT_NE(lead.find("<a href=\"#tail-1-8\"><code>infer/onnx_cpu_threads_1_batchsize_1</code></a>"),
            std::string::npos);
  EXPECT_NE(lead.find("href=\"infer%20logs/"), std::string::npos);  // its log
  EXPECT_EQ(lead.find("UNSUPPORTED"), std::string::npos);
}

TEST(HtmlReport, APassingRunHasNoFailuresSection) {
  RunReport report = test::realistic::run_report();
  report.plans.erase(report.plans.begin());
  EXPECT_EQ(render_html_report(report).find("class=\"attention\""), std::string::npos);
}

TEST(HtmlReport, ShowsTheEnvironment) {
  RunReport report = test::realistic::run_report();
  EXPECT_EQ(render_html_report(report).find("id=\"environment\""), std::string::npos);
  Environment environment;
  environment.host = "gpu-host-3";
  environment.gpus = {{"NVIDIA H100 80GB HBM3", "550.54.15"}};
  environment.interpreter = InterpreterInfo{"python3", "3.11.2", {{"torch", "2.1.2"}}};
  environment.repository = RepositoryState{"0123abc", "main", true};
  environment.command_line = {"tipc-run", "a b.txt", "lite_train_lite_infer"};
  report.environment = environment;
  const std::string section = between(render_html_report(report), "id=\"environment\"", "<dl", "</dl>");
  EXPECT_NE(section.find("<dt>Host</dt><dd>gpu-host-3</dd>"), std::string::npos);
  EXPECT_NE(section.find("<dt>GPUs</dt><dd>NVIDIA H100 80GB HBM3 (driver 550.54.15)</dd>"), std::string::npos);
  EXPECT_NE(section.find("<dt>Python</dt><dd>3.11.2 (python3), torch 2.1.2</dd>"), std::string::npos);
  EXPECT_NE(section.find("0123abc on main, with uncommitted changes"), std::string::npos);
  EXPECT_NE(section.find("<code>tipc-run &#39;a b.txt&#39; lite_train_lite_infer</code>"), std::string::npos);
}

TEST(HtmlReport, DrawsAChartPerTrainMetricWithARankPerSeries) {
  const std::string html = rendered(test::realistic::run_report());
  const std::string loss_chart = between(html, "<figcaption>loss</figcaption>", "<svg", "</svg>");

  EXPECT_EQ(occurrences(loss_chart, "<polyline class=\"line\""), 2u);
  EXPECT_NE(loss_chart.find(">rank 0</text>"), std::string::npos);
  EXPECT_NE(loss_chart.find(">rank 1</text>"), std::string::npos);
  EXPECT_NE(loss_chart.find(">iteration</text>"), std::string::npos);
  EXPECT_NE(html.find("<figcaption>acc</figcaption>"), std::string::npos);
  EXPECT_NE(html.find("<figcaption>lr</figcaption>"), std::string::npos);
}

TEST(HtmlReport, HasAnSvgPerCurveMetricAndPerHistogram) {
  const std::string html = rendered(test::realistic::run_report());
  // loss, lr and acc of the train stage, and two weight histograms of the init check.
  EXPECT_EQ(occurrences(html, "<svg class=\"chart\""), 5u);
  EXPECT_EQ(occurrences(html, "class=\"area hist-reference\""), 2u);
  EXPECT_EQ(occurrences(html, "class=\"area hist-candidate\""), 2u);
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(html.find("inf\""), std::string::npos);
}

TEST(HtmlReport, ShowsInferenceLatencyEvaluationAndChecks) {
  const std::string html = rendered(test::realistic::run_report());

  EXPECT_NE(html.find("<h3>Inference latency</h3>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<svg class=\"bar\""), 3u);  // two CPU infers and the whole-infer one
  EXPECT_NE(html.find("<td class=\"num\">0.310</td><td class=\"num\">3.900</td><td class=\"num\">0.061</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<b>top1</b>0.96875"), std::string::npos);
  EXPECT_NE(html.find("<h3>Alignment checks</h3>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<svg class=\"gauge\""), 4u);
  EXPECT_NE(html.find("class=\"gauge-fail\""), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">0.0123</td><td class=\"num\">0.012</td>"), std::string::npos);
  EXPECT_NE(html.find("the candidate&#39;s std is 16% above"), std::string::npos);
}

TEST(HtmlReport, ShowsBenchmarkFiguresWithAThroughputChartPerStage) {
  RunReport run = test::sample_run_report();
  const std::string html = rendered(run);

  const std::string section = between(html, "<h3>Benchmark figures</h3>", "<tbody>", "</table>");
  EXPECT_NE(section.find("<td class=\"num\">120.50</td><td class=\"num\">118.25</td><td>samples/s</td>"),
            std::string::npos);
  EXPECT_NE(section.find("<td class=\"num\">0.0625</td><td class=\"num\">0.0700</td>"), std::string::npos);
  EXPECT_NE(section.find("<td class=\"num\">2048</td>"), std::string::npos);
  EXPECT_EQ(occurrences(html, ">logged step</text>"), 1u);                // the ips chart's x axis
  EXPECT_NE(html.find("<td class=\"num\">718</td>"), std::string::npos);  // the infer stage's RSS

  run.plans[0].stages[0].metrics.benchmark.reset();
  EXPECT_EQ(rendered(run).find("Benchmark figures"), std::string::npos);
}

TEST(HtmlReport, FailuresShowTheirLogTailsAndTheTableLinksToThem) {
  const std::string html = rendered(test::realistic::run_report());

  EXPECT_EQ(occurrences(html, "<details class=\"failure\""), 3u);  // init check, onnx infer, timeout
  EXPECT_NE(html.find("<a href=\"#tail-1-8\">log tail</a>"), std::string::npos);
  EXPECT_NE(html.find("<details class=\"failure\" id=\"tail-1-8\" open>"), std::string::npos);
  EXPECT_NE(html.find("Node [Gemm]:(onnx_node!/classifier/Linear) parse error &amp; &lt;shape mismatch&gt;\n"),
            std::string::npos);
  EXPECT_NE(html.find("killed by signal 15"), std::string::npos);
}

TEST(HtmlReport, EscapesHostileTextEverywhere) {
  const std::string html = rendered(hostile_report());

  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>tags"), std::string::npos);
  EXPECT_EQ(html.find("<mode>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;id&quot;)&lt;/script&gt;&amp;amp;&#39;x&#39;"), std::string::npos);
  EXPECT_NE(html.find("href=\"file:///tmp/a%20dir/%3Cx%3E%26%22y%22.log\""), std::string::npos);
  RunReport relative = hostile_report();
  relative.report_dir = "/tmp";
  EXPECT_NE(rendered(relative).find("href=\"a%20dir/%3Cx%3E%26%22y%22.log\""), std::string::npos);
  EXPECT_EQ(occurrences(html, "<pre class=\"log\">"), occurrences(html, "</pre>"));
  EXPECT_EQ(occurrences(html, "<details"), occurrences(html, "</details>"));
  EXPECT_TRUE(is_clean_utf8(html));

  const std::string tail = between(html, "line one", "line one", "</pre>");
  EXPECT_NE(tail.find("bell\xe2\x90\x87 nul\xe2\x90\x80 del\xe2\x90\xa1\n"), std::string::npos);  // control pictures
  EXPECT_NE(tail.find("red &amp; invalid \xef\xbf\xbd\xef\xbf\xbd utf-8"), std::string::npos);    // no colour codes
  EXPECT_NE(tail.find("crlf\nprogress 10%\nprogress 20%\n"), std::string::npos);
}

TEST(HtmlReport, MalformedHistogramsAreNotedNotDrawn) {
  RunReport report = test::realistic::run_report();
  report.plans[0].stages[4].check->histograms[0].edges.pop_back();
  const std::string html = rendered(report);
  EXPECT_NE(html.find("The histogram data is malformed."), std::string::npos);
  EXPECT_EQ(occurrences(html, "class=\"area hist-reference\""), 1u);
}

TEST(HtmlReport, StagesThatDidNotRunAreFoldedBelowTheOnesThatDid) {
  const RunReport report = test::realistic::run_report();
  const std::string html = rendered(report);
  const std::string plan = between(html, "id=\"plan-1\"", "<table>", "</section>");
  const std::string ran = between(plan, "", "<table>", "</table>");
  const std::string folded = between(plan, "", "<details class=\"more not-run\">", "</details>");

  EXPECT_NE(folded.find("<summary>2 stages did not run (1 UNSUPPORTED, 1 SKIPPED)</summary>"), std::string::npos)
      << folded;
  EXPECT_NE(folded.find("infer/gpu_trt_False_precision_fp16_batchsize_1"), std::string::npos);
  EXPECT_NE(folded.find("check/inference_vs_ground_truth"), std::string::npos);
  EXPECT_EQ(ran.find("UNSUPPORTED"), std::string::npos) << ran;
  EXPECT_NE(ran.find("infer/onnx_cpu_threads_1_batchsize_1"), std::string::npos) << "a failure stays in the table";
  EXPECT_NE(ran.find("TIMEOUT"), std::string::npos);
}

TEST(HtmlReport, ALongCheckShowsItsFailingValuesFirstAndFoldsTheRest) {
  RunReport report = test::realistic::run_report();
  StageReport check = test::realistic::demo_stage("check/many", "check", "FAIL", 0.2);
  check.check = CheckDetails{CheckKind::kCompareResults, false, {}, {}, {}, {}, {}};
  for (int i = 0; i < 20; ++i) check.check->values.push_back({"image_" + std::to_string(i), 0.0001, 0.001, true});
  check.check->values[13] = {"image_13", 0.5, 0.001, false};
  report.plans[0].stages.push_back(check);
  const std::string block =
      between(rendered(report), "check/many</code><span class=\"tag\">", "<p", "</details>\n</div>");

  EXPECT_NE(block.find("<p class=\"key\">1 of 20 values fail:</p>"), std::string::npos) << block.substr(0, 500);
  const std::string headline = between(block, "", "<table>", "</table>");
  EXPECT_EQ(occurrences(headline, "<tr><td>"), 1u);
  EXPECT_NE(headline.find("image_13"), std::string::npos);
  const std::string all = between(block, "", "<details class=\"more\"><summary>all 20 values</summary>", "</details>");
  EXPECT_EQ(occurrences(all, "<tr><td>"), 20u);

  check.check->values[13].passed = true;
  check.check->values[13].value = 0.0009;
  report.plans[0].stages.back() = check;
  const std::string passing = between(rendered(report), "check/many</code><span class=\"tag\">", "<p", "</table>");
  EXPECT_NE(passing.find("3 of 20 values passed; nearest their limits:"), std::string::npos) << passing.substr(0, 500);
  EXPECT_LT(passing.find("image_13"), passing.find("image_0<")) << "nearest the limit first";
}

TEST(HtmlReport, RendersAnEmptyRunAndIsDeterministic) {
  const RunReport empty;
  const std::string html = rendered(empty);
  EXPECT_NE(html.find("<span class=\"count\">0 stages</span>"), std::string::npos);
  EXPECT_EQ(render_html_report(test::realistic::run_report()), render_html_report(test::realistic::run_report()));
}

TEST(HtmlReport, AStagesGpuFiguresAndThrottlingStandBesideItsTimeAndTheRunNamesItsGpus) {
  const std::string html = rendered(test::sample_gpu_run());
  const std::string row = between(html, "<table>", "<tr><td><code>norm_train/gpus_-1/train</code>", "</tr>");
  EXPECT_NE(row.find("12.2 s</td><td>0<div class=\"gpu-figures\">"
                     "peak 10.2 GiB · util 87 % (peak 100 %) · 250 W (peak 301 W)</div><span class=\"tag "
                     "throttled\">throttled: sw_power_cap</span></td>"),
            std::string::npos)
      << row;
  EXPECT_NE(html.find("<span class=\"label\">GPUs</span><span class=\"value\">GPU 0 NVIDIA H100 80GB HBM3 "
                      "(GPU-9f8e7d6c-1111-2222-3333-444455556666) (--gpus)</span>"),
            std::string::npos);
  EXPECT_EQ(occurrences(html, "class=\"gpu-figures\""), 1u);  // the other stages have none
}

TEST(HtmlReport, GpuWarningsAreShownAsWarningsNearTheTopAndOnTheStagesRow) {
  const std::string html = rendered(test::sample_gpu_run());
  const std::string section = between(html, "<main>", "<section class=\"attention gpu-warnings\"", "</section>");
  ASSERT_FALSE(section.empty());
  EXPECT_LT(html.find("id=\"gpu-warnings\""), html.find("<section class=\"overview\""));
  EXPECT_NE(section.find("<h2>1 GPU warning</h2>"), std::string::npos);
  EXPECT_NE(section.find("<tr><td class=\"gpu-warning\">" + test::kForeignProcessWarning +
                         "</td><td class=\"stage\">"
                         "<code>norm_train/gpus_-1/train</code> <span class=\"muted\">alexnet.txt"),
            std::string::npos)
      << section;
  const std::string row = between(html, "<table>", "<tr><td><code>norm_train/gpus_-1/train</code>", "</tr>");
  EXPECT_NE(row.find("<div class=\"gpu-warning\">&#9888; " + test::kForeignProcessWarning + "</div>"),
            std::string::npos);
  EXPECT_EQ(rendered(test::sample_run_report()).find("class=\"gpu-warning"), std::string::npos);
}

TEST(HtmlReport, ATimeoutShowsWhereItHungAmongTheStagesToLookAtAndInItsFailure) {
  const std::string html = rendered(test::sample_gpu_run());
  const std::string frames =
      "<div class=\"muted\">where it hung, most recent call first:</div><ol class=\"stack\">"
      "<li><code>hang.py:5 in spin</code></li><li><code>hang.py:9 in &lt;module&gt;</code></li></ol>";
  const std::string lead = between(html, "<main>", "<section class=\"attention\"", "</section>");
  EXPECT_NE(lead.find("timed out after 5 s" + frames + "</td>"), std::string::npos) << lead;
  EXPECT_NE(html.find("<dt>Stack</dt><dd>" + frames + "</dd>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<ol class=\"stack\">"), 2u);  // the timeout alone
}

TEST(HtmlReport, EscapesHostileStacksGpuWarningsAndDeviceNames) {
  RunReport run = test::sample_gpu_run();
  run.plans[0].stages[0].gpu_warnings = {test::kHostileText};
  run.plans[0].stages[0].gpu.throttle_reasons = {test::kHostileText};
  run.plans[0].stages[2].stack = {test::kHostileText};
  run.gpu_devices[0].name = test::kHostileText;
  const std::string html = rendered(run);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_GE(occurrences(html, "&lt;script&gt;alert(1)&lt;/script&gt;|`x`\xe2\x90\x9b[2J\xe2\x90\x87"), 5u);
  EXPECT_TRUE(is_clean_utf8(html));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
