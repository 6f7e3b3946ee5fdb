#include "report/run_report.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/sample_report.h"

namespace tipc::report {
namespace {

RunReport with_results(std::vector<std::string> results) {
  RunReport run;
  run.plans.emplace_back();
  for (auto& result : results) run.plans[0].stages.push_back(test::sample_stage("s", "infer", result, ""));
  return run;
}

TEST(RunReport, CountsResultsOverEveryPlan) {
  const RunReport run = test::sample_run_report();
  EXPECT_EQ(run.count("PASS"), 5);
  EXPECT_EQ(run.count("FAIL"), 2);
  EXPECT_EQ(run.count("TIMEOUT"), 1);
  EXPECT_EQ(run.count("UNRESOLVED"), 0);
}

TEST(RunReport, ExitCodeIsTheRunsExitCode) {
  EXPECT_EQ(with_results({"PASS", "UNSUPPORTED", "SKIPPED"}).exit_code(false), 0);
  EXPECT_EQ(with_results({"PASS", "UNSUPPORTED"}).exit_code(true), 1);
  EXPECT_EQ(with_results({"PASS", "TIMEOUT"}).exit_code(false), 1);
  EXPECT_EQ(with_results({"UNRESOLVED"}).exit_code(false), 1);
  EXPECT_EQ(with_results({"SOMETHING NEW"}).exit_code(false), 1);
  RunReport interrupted = with_results({"PASS"});
  interrupted.interrupted = true;
  EXPECT_EQ(interrupted.exit_code(false), 130);
  EXPECT_STREQ(verdict(interrupted), "INTERRUPTED");
  EXPECT_STREQ(verdict(with_results({"PASS"})), "PASS");
  EXPECT_STREQ(verdict(with_results({"FAIL"})), "FAIL");
}

std::vector<std::string> labels(const std::vector<const CheckValue*>& values) {
  std::vector<std::string> out;
  for (const CheckValue* value : values) out.push_back(value->label);
  return out;
}

TEST(HeadlineValues, FailingValuesWorstFirstElseTheNearestTheirLimits) {
  CheckDetails check;
  check.values = {{"a", 0.5, 1, true}, {"b", 3, 1, false}, {"c", 0.9, 1, true}, {"d", 2, 1, false},
                  {"e", std::nan(""), 1, false}, {"f", 0.1, 1, true}};
  EXPECT_EQ(labels(headline_values(check, 10, 2)), (std::vector<std::string>{"e", "b", "d"})) << "NaN is the worst";
  EXPECT_EQ(labels(headline_values(check, 2, 2)), (std::vector<std::string>{"e", "b"}));
  for (auto& value : check.values) value = {value.label, std::isnan(value.value) ? 0.0 : value.value / 4, 1, true};
  EXPECT_EQ(labels(headline_values(check, 10, 2)), (std::vector<std::string>{"b", "d"}));
  EXPECT_TRUE(headline_values(check, 10, 0).empty());
  EXPECT_TRUE(headline_values(CheckDetails{}, 10, 3).empty());
}

}  // namespace
}  // namespace tipc::report
