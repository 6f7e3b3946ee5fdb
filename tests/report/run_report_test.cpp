#include "report/run_report.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tipc::report
