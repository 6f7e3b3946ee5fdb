// The reports a run writes at its end, from its state on disk: where they go, and an
// interrupted run still listing every stage.
#include "report/report_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/report_loader.h"
#include "support/fake_run.h"
#include "support/junit_xml.h"
#include "support/run_binary.h"

namespace tipc::report {
namespace {
using plan::StageKind;
using test::fake_plan;
using test::fake_stage;

TEST(ReportWriter, OnePlanWritesIntoItsOutputDirectoryAndASuiteIntoTheOutputRoot) {
  const auto a = fake_plan({fake_stage("train", StageKind::kTrain)}, "a");
  const auto b = fake_plan({fake_stage("train", StageKind::kTrain)}, "b");
  EXPECT_EQ(report_directory("/repo", {&a}), "/repo/test_tipc/output/a/lite");
  EXPECT_EQ(report_directory("/repo", {&a, &b}), "/repo/test_tipc/output");
}

TEST(ReportWriter, EveryReportFileIsWrittenAndNamedOnce) {
  test::FakeRun run;
  std::ostringstream out;
  ReportWriter writer(run.repo.path().string(), std::nullopt, out);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p}, {&writer});
  for (const ReportFile& file : report_files()) {
    EXPECT_FALSE(test::slurp(run.output() + "/" + file.name).empty()) << file.name;
  }
  EXPECT_EQ(out.str(), "tipc-run: reports in " + run.output() + " (report.json, junit.xml, summary.md, report.html)\n");
  const auto json = nlohmann::json::parse(test::slurp(run.output() + "/report.json"));
  EXPECT_EQ(json["verdict"], "PASS");
  EXPECT_EQ(json["counts"]["PASS"], 2);
}

TEST(ReportWriter, AnInterruptedRunStillListsEveryStage) {
  test::FakeRun run;
  run.options.jobs = 2;
  run.executor.default_script.seconds = 10;
  run.executor.interrupt_at = 5;
  std::ostringstream out;
  ReportWriter writer(run.repo.path().string(), std::nullopt, out);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"}),
                            fake_stage("export", StageKind::kExport, {"train"}), fake_stage("other", StageKind::kInfer)});
  const auto summary = run.run({&p}, {&writer});
  ASSERT_TRUE(summary.interrupted);
  const auto json = nlohmann::json::parse(test::slurp(run.output() + "/report.json"));
  EXPECT_EQ(json["verdict"], "INTERRUPTED");
  EXPECT_EQ(json["interrupted"], true);
  ASSERT_EQ(json["plans"][0]["stages"].size(), 4u);
  for (const auto& stage : json["plans"][0]["stages"]) EXPECT_EQ(stage["result"], "SKIPPED") << stage["id"];
  const auto junit = test::read_junit(test::slurp(run.output() + "/junit.xml"));
  EXPECT_EQ(junit.errors, "");
  EXPECT_EQ(junit.cases.size(), 4u);
  EXPECT_EQ(junit.suites.at(0).attributes.at("skipped"), "4");
}

TEST(ReportWriter, AMissingPlanFileIsAWarningNotACrash) {
  test::FakeRun run;
  std::ostringstream out;
  ReportWriter writer(run.repo.path().string(), std::nullopt, out);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run::MultiListener listeners;  // no journal writer: nothing on disk to report from
  listeners.add(writer);
  run::run_stages({&p}, run.executor, listeners, run.options, [] { return false; });
  EXPECT_TRUE(out.str().starts_with("tipc-run: warning: reports: ")) << out.str();
}

}  // namespace
}  // namespace tipc::report
