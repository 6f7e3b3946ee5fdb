// junit.xml: pinned by a golden file, parsed back strictly and validated against the
// structure Jenkins and GitLab read (tests/report/junit.xsd).
#include "report/junit_report.h"

#include <gtest/gtest.h>

#include "report/gpu_sample_run.h"
#include "support/golden.h"
#include "support/junit_xml.h"
#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(JunitReport, MatchesTheGoldenFile) {
  test::expect_golden("junit.xml", render_junit_report(test::sample_run_report()));
}

TEST(JunitReport, IsValidAndItsCountsAddUp) {
  const auto file = test::read_junit(render_junit_report(test::sample_run_report()));
  ASSERT_EQ(file.errors, "");
  ASSERT_EQ(file.suites.size(), 2u);
  EXPECT_EQ(file.root_attributes.at("tests"), "10");
  EXPECT_EQ(file.root_attributes.at("failures"), "2");
  EXPECT_EQ(file.root_attributes.at("errors"), "1");
  const auto& suite = file.suites[0].attributes;
  EXPECT_EQ(suite.at("name"), "test_tipc/configs/alexnet.txt lite_train_lite_infer");
  EXPECT_EQ(suite.at("tests"), "9");
  EXPECT_EQ(file.suites[0].cases, 9);
  EXPECT_EQ(suite.at("failures"), "2");
  EXPECT_EQ(suite.at("errors"), "1");
  EXPECT_EQ(suite.at("skipped"), "2");
  EXPECT_EQ(file.root_attributes.at("time"), "30.500");  // the run's wall time
  EXPECT_EQ(suite.at("time"), "21.750");  // first start to last end; the resumed stage ran in an earlier run
  EXPECT_EQ(suite.at("timestamp"), "2023-11-14T22:13:20");
}

TEST(JunitReport, BenchmarkFiguresArePropertiesOfTheStagesTestCase) {
  const auto file = test::read_junit(render_junit_report(test::sample_run_report()));
  ASSERT_EQ(file.errors, "");
  const std::map<std::string, std::string> train = {{"ips.median", "120.5"},       {"ips.mean", "118.25"},
                                                    {"ips.unit", "samples/s"},     {"batch_cost_s.median", "0.0625"},
                                                    {"batch_cost_s.mean", "0.07"}, {"max_mem_reserved_mb", "2048"}};
  EXPECT_EQ(file.cases[0].properties, train);
  EXPECT_TRUE(file.cases[1].properties.empty());  // an eval stage: no figures
  EXPECT_EQ(file.cases[2].properties.at("inference_ms"), "10.25");
  EXPECT_EQ(file.cases[2].properties.at("cpu_rss_mb"), "717.5");
  EXPECT_FALSE(file.cases[2].properties.count("gpu_rss_mb"));
  EXPECT_EQ(file.cases[2].outcome, "error");  // the properties come first, the outcome still counts
}

TEST(JunitReport, TimesAreWallTimesNotTheSumOfStagesThatRanSideBySide) {
  RunReport run;
  run.started = 100;
  run.finished = 112.5;
  PlanReport plan = test::plan_of("/repo", "alexnet", "lite_train_lite_infer", "paddleocr");
  plan.stages = {test::ran(test::sample_stage("a", "infer", "PASS", ""), 101, 10, 0),
                 test::ran(test::sample_stage("b", "infer", "PASS", ""), 101.5, 10, 0)};
  run.plans = {plan};
  const auto file = test::read_junit(render_junit_report(run));
  ASSERT_EQ(file.errors, "");
  EXPECT_EQ(file.root_attributes.at("time"), "12.500");
  EXPECT_EQ(file.suites[0].attributes.at("time"), "10.500");
  run.finished.reset();  // cut short: no finish time, so the stages' sum is all there is
  EXPECT_EQ(test::read_junit(render_junit_report(run)).root_attributes.at("time"), "20.000");
}

TEST(JunitReport, EveryStageIsATestCaseWithItsOutcome) {
  const auto run = test::sample_run_report();
  const auto file = test::read_junit(render_junit_report(run));
  ASSERT_EQ(file.errors, "");
  ASSERT_EQ(file.cases.size(), 10u);
  std::size_t i = 0;
  for (const auto& plan : run.plans) {
    for (const auto& stage : plan.stages) EXPECT_EQ(file.cases[i++].name, stage.id);
  }
  EXPECT_EQ(file.cases[0].classname, "test_tipc/configs/alexnet.lite_train_lite_infer");
  EXPECT_EQ(file.cases[0].outcome, "");
  EXPECT_EQ(file.cases[1].outcome, "failure");
  EXPECT_EQ(file.cases[2].outcome, "error");  // TIMEOUT
  EXPECT_EQ(file.cases[3].outcome, "skipped");
  EXPECT_EQ(file.cases[3].message, "needs 1 GPU; 0 available (--gpus)");
  EXPECT_EQ(file.cases[4].outcome, "skipped");
  EXPECT_EQ(file.cases[6].outcome, "failure");  // the diff check: its failing value in the text
  EXPECT_NE(file.cases[6].text.find("logits: max = 2.5e-05 > limit 1e-06: FAIL"), std::string::npos)
      << file.cases[6].text;
  EXPECT_EQ(file.cases[9].classname, "test_tipc/configs/other.whole_infer");
}

TEST(JunitReport, MarkupAndControlCharactersSurviveEscaping) {
  const auto file = test::read_junit(render_junit_report(test::sample_run_report()));
  ASSERT_EQ(file.errors, "");
  const auto& eval = file.cases[1];
  EXPECT_EQ(eval.message, "ValueError: top1 < 0 & \"nan\"");
  EXPECT_EQ(eval.text, "exit code 3 <&\"'>\n");
  EXPECT_NE(eval.system_out.find("  a < b && \"c\" 'd'\n"), std::string::npos) << eval.system_out;
  EXPECT_NE(eval.system_out.find("\\x1b[31mred\\x1b[0m \\x07bell \xEF\xBF\xBD\xEF\xBF\xBD bytes"), std::string::npos)
      << eval.system_out;
}

TEST(JunitReport, AFailuresMessageIsItsLogsFirstErrorLineAndItsOutputTheCommandAndTail) {
  RunReport run = test::sample_run_report();
  StageReport& eval = run.plans[0].stages[1];
  eval.argv = {"python3", "tools/eval.py", "-o", "Global.pretrained_model=./out/best model"};
  eval.cwd = "/repo";
  eval.log = "/repo/test_tipc/output/eval.log";
  const auto file = test::read_junit(render_junit_report(run));
  ASSERT_EQ(file.errors, "");
  EXPECT_EQ(file.cases[1].message, "ValueError: top1 < 0 & \"nan\"");
  EXPECT_TRUE(file.cases[1].system_out.starts_with(
      "command: python3 tools/eval.py -o 'Global.pretrained_model=./out/best model'\ncwd: /repo\n"
      "log: /repo/test_tipc/output/eval.log\nlast lines of the log:\nTraceback (most recent call last):\n"))
      << file.cases[1].system_out;
  // Without an error line the message is the reason, as before; a timeout is an <error> alike.
  EXPECT_EQ(file.cases[2].outcome, "error");
  EXPECT_EQ(file.cases[2].message, "timed out after 5 s");
  EXPECT_NE(file.cases[2].system_out.find("command: "), std::string::npos);
  EXPECT_EQ(file.cases[0].system_out.find("command: "), std::string::npos);  // a pass has none
}

TEST(JunitReport, AnyBytesInAnyFieldStayValidXml) {
  RunReport run = test::sample_run_report();
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte += static_cast<char>(c);
  for (auto& stage : run.plans[0].stages) {
    stage.id += every_byte;
    stage.reason += every_byte + "\r\n\t";
    stage.log_tail += every_byte;
    stage.error_line.clear();  // the message is the reason
  }
  run.plans[0].config += every_byte;
  const auto file = test::read_junit(render_junit_report(run));
  EXPECT_EQ(file.errors, "");
  ASSERT_EQ(file.cases.size(), 10u);
  EXPECT_EQ(file.cases[1].message.substr(file.cases[1].message.size() - 3), "\r\n\t");  // kept as references
}

TEST(JunitReport, AnEarlierRunsResultSaysWhenAndTheVerdictIsAProperty) {
  auto run = test::sample_run_report();
  StageReport& failed = run.plans[0].stages[1];
  failed.earlier_run = EarlierRun{"r0", 1714564800.0, true};
  const std::string xml = render_junit_report(run);
  const auto file = test::read_junit(xml);
  ASSERT_EQ(file.errors, "");
  EXPECT_NE(xml.find("(from an earlier run at 2024-05-01 12:00:00 UTC)\" type=\"FAIL\""), std::string::npos) << xml;
  EXPECT_NE(
      xml.find("<property name=\"verdict\" value=\"FAIL (3 of 10 stages failed, 1 of them in an earlier run)\"/>"),
      std::string::npos);
}

// --retries, as Maven Surefire and pytest-rerunfailures write it: a FLAKY stage is a passed test
// case with a flakyFailure or flakyError per failed try; a stage that failed every try has its
// failure and a rerunFailure per earlier try.
TEST(JunitReport, AFlakyStagePassesWithItsFlakyFailuresAndAFailedOneHasItsRerunFailures) {
  const std::string xml = render_junit_report(test::sample_run_report_with_retries());
  const auto file = test::read_junit(xml);
  ASSERT_EQ(file.errors, "");
  EXPECT_EQ(file.cases[0].outcome, "");  // passed
  EXPECT_EQ(file.cases[1].outcome, "failure");
  EXPECT_EQ(file.suites[0].attributes.at("failures"), "2");  // as without retries: the flaky one is no failure
  EXPECT_NE(xml.find("<flakyFailure message=\"exit code 1\" type=\"FAIL\"><stackTrace>last lines of "
                     "/repo/test_tipc/output/alexnet/lite_train_lite_infer/train.attempt1.log:\nTraceback (most recent "
                     "call last):\nValueError: &lt;lr&gt;\n</stackTrace></flakyFailure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<flakyError message=\"timed out after 5 s\" type=\"TIMEOUT\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<rerunFailure message=\"exit code 3\" type=\"FAIL\"><stackTrace></stackTrace></rerunFailure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("stages failed; 1 flaky)"), std::string::npos) << "the verdict property";
}

TEST(JunitReport, AnEmptyRunIsStillValid) {
  const auto file = test::read_junit(render_junit_report(RunReport{}));
  EXPECT_EQ(file.errors, "");
  EXPECT_EQ(file.root_attributes.at("tests"), "0");
}

// A test case's properties named gpu_: the driver's figures.
std::map<std::string, std::string> gpu_properties(const test::JunitCase& junit_case) {
  std::map<std::string, std::string> gpu;
  for (const auto& [name, value] : junit_case.properties) {
    if (name.starts_with("gpu_")) gpu.emplace(name, value);
  }
  return gpu;
}

TEST(JunitReport, GpuFiguresArePropertiesAndWarningsAndAStackAreInTheText) {
  const auto file = test::read_junit(render_junit_report(test::sample_gpu_run()));
  ASSERT_EQ(file.errors, "");
  EXPECT_EQ(gpu_properties(file.cases[0]),
            (std::map<std::string, std::string>{{"gpu_memory_peak_mib", "10444.8"},
                                                {"gpu_utilization_mean_percent", "87.4"},
                                                {"gpu_utilization_peak_percent", "100"},
                                                {"gpu_power_mean_watts", "250.2"},
                                                {"gpu_power_peak_watts", "301"},
                                                {"gpu_throttle_reasons", "sw_power_cap"}}));
  EXPECT_EQ(file.cases[0].properties.at("ips.median"), "120.5");  // beside the log's figures
  EXPECT_NE(file.cases[0].system_out.find("GPU warning: " + test::kForeignProcessWarning + "\n"), std::string::npos);
  EXPECT_EQ(file.cases[2].text,
            "where it hung, most recent call first:\n  hang.py:5 in spin\n  hang.py:9 in <module>\n");
  EXPECT_TRUE(gpu_properties(file.cases[1]).empty());
  // Only the figures the driver gave.
  RunReport mig = test::sample_gpu_run();
  mig.plans[0].stages[0].gpu = {};
  mig.plans[0].stages[0].gpu.samples = 2;
  mig.plans[0].stages[0].gpu.memory_peak_mib = 900;
  EXPECT_EQ(gpu_properties(test::read_junit(render_junit_report(mig)).cases[0]),
            (std::map<std::string, std::string>{{"gpu_memory_peak_mib", "900"}}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
