#include "report/run_report.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

RunReport with_results(std::vector<std::string> results) {
  RunReport run;
  run.plans.emplace_back();
  for (auto& result : results) run.plans[0].stages.push_back(test::sample_stage("s", "infer", result, ""));
  return run;
}

TEST(RunReport, CountsResultsOverEveryPlan) {
  const RunReport run = test::sample_run_report();
  EXPECT_EQ(run.count(run::Status::kPass), 5);
  EXPECT_EQ(run.count(run::Status::kFail), 2);
  EXPECT_EQ(run.count(run::Status::kTimeout), 1);
  EXPECT_EQ(run.count(run::Status::kUnresolved), 0);
}

TEST(RunReport, ItsVerdictIsTheRunsVerdict) {
  EXPECT_EQ(with_results({"PASS", "UNSUPPORTED", "SKIPPED"}).verdict().exit_code({}), 0);
  EXPECT_EQ(with_results({"PASS", "UNSUPPORTED"}).verdict().exit_code({.strict = true}), 1);
  EXPECT_EQ(with_results({"PASS", "TIMEOUT"}).verdict().exit_code({}), 1);
  EXPECT_EQ(with_results({"UNRESOLVED"}).verdict().exit_code({}), 1);
  EXPECT_EQ(with_results({"UNSUPPORTED", "SKIPPED"}).verdict().exit_code({}), 5) << "nothing ran";
  RunReport interrupted = with_results({"PASS"});
  interrupted.interrupted = true;
  EXPECT_EQ(interrupted.verdict().exit_code({}), 130);
  EXPECT_STREQ(interrupted.verdict().word(), "INTERRUPTED");
  EXPECT_STREQ(with_results({"PASS"}).verdict().word(), "PASS");
  EXPECT_STREQ(with_results({"PASS", "UNSUPPORTED"}).verdict().word(), "PARTIAL");
  EXPECT_STREQ(with_results({"FAIL"}).verdict().word(), "FAIL");
}

TEST(RunReport, ItsVerdictCountsTheConfigsLeftOutAndThisRunsOwnStages) {
  RunReport run = with_results({"PASS", "FAIL"});
  run.plans[0].stages[0].earlier_run = EarlierRun{"1714564800000-42", 1714564800.0, true};
  EXPECT_EQ(run.verdict().kind, run::VerdictKind::kFail) << "this run's own stage failed";
  run.plans[0].stages[1].result = run::Status::kUnsupported;
  EXPECT_EQ(run.verdict().kind, run::VerdictKind::kNothingRan) << "none of this run's own stages ran";
  EXPECT_EQ(run.exit_code({}), 5);
  run.invalid_configs = {{"a.txt", 3, "", "bad"}, {"a.txt", 5, "", "worse"}};
  EXPECT_EQ(run.config_count().given, 2);
  EXPECT_EQ(run.config_count().invalid, 1) << "one config, two problems";
  EXPECT_EQ(run.verdict().headline(), "FAIL (1 of 2 configs invalid)");
  EXPECT_EQ(run.exit_code({}), 2);
}

TEST(RunReport, AnEarlierRunsResultCountsAsEarlierAndSaysWhen) {
  RunReport run = with_results({"PASS", "FAIL"});
  StageReport& failed = run.plans[0].stages[1];
  failed.earlier_run = EarlierRun{"1714564800000-42", 1714564800.0, true};
  EXPECT_EQ(run.verdict().failed_earlier, 1);
  EXPECT_EQ(run.verdict().headline(), "FAIL (1 of 2 stages failed, 1 of them in an earlier run)");
  EXPECT_EQ(earlier_run_note(failed), "from an earlier run at 2024-05-01 12:00:00 UTC");
  failed.earlier_run->same_command = false;
  EXPECT_EQ(earlier_run_note(failed), "from an earlier run at 2024-05-01 12:00:00 UTC; its command has changed since");
  EXPECT_EQ(earlier_run_note(run.plans[0].stages[0]), "") << "this run's own result";
}

TEST(RunReport, AClusterJobIsLabelledWithItsNodesWhereSlurmNamedThem) {
  EXPECT_EQ(cluster_job_label("4711", "node[1-2]"), "job 4711 on node[1-2]");
  EXPECT_EQ(cluster_job_label("4711", ""), "job 4711");
  EXPECT_EQ(cluster_job_label("", ""), "") << "a stage that ran as no job";
}

std::vector<std::string> labels(const std::vector<const CheckValue*>& values) {
  std::vector<std::string> out;
  for (const CheckValue* value : values) out.push_back(value->label);
  return out;
}

TEST(HeadlineValues, FailingValuesWorstFirstElseTheNearestTheirLimits) {
  CheckDetails check;
  check.values = {{"a", 0.5, 1, true},           {"b", 3, 1, false}, {"c", 0.9, 1, true}, {"d", 2, 1, false},
                  {"e", std::nan(""), 1, false}, {"f", 0.1, 1, true}};
  EXPECT_EQ(labels(headline_values(check, 10, 2)), (std::vector<std::string>{"e", "b", "d"})) << "NaN is the worst";
  EXPECT_EQ(labels(headline_values(check, 2, 2)), (std::vector<std::string>{"e", "b"}));
  for (auto& value : check.values) value = {value.label, std::isnan(value.value) ? 0.0 : value.value / 4, 1, true};
  EXPECT_EQ(labels(headline_values(check, 10, 2)), (std::vector<std::string>{"b", "d"}));
  EXPECT_TRUE(headline_values(check, 10, 0).empty());
  EXPECT_TRUE(headline_values(CheckDetails{}, 10, 3).empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
