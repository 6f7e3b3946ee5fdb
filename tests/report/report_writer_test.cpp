// The reports a run writes at its end, from its state on disk: where they go, and an
// interrupted run still listing every stage.
#include "report/report_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report/report_loader.h"
#include "support/fake_run.h"
#include "support/junit_xml.h"
#include "support/run_binary.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
using plan::StageKind;
using test::fake_plan;
using test::fake_stage;

// The writer alone, as tipc-run registers it: it writes the journal the reports are read from.
ReportWriter writer_for(const test::FakeRun& run, std::ostream& out) {
  return ReportWriter(run::RunContext{run.repo.path().string(), false, "", "", {}, {}}, std::nullopt, out);
}

run::RunSummary run_with(test::FakeRun& run, ReportWriter& writer, const plan::Plan& plan) {
  return run::run_stages({&plan}, run.executor, writer, run.options, [&run] { return run.executor.interrupt_fired(); });
}

TEST(ReportWriter, OnePlanWritesIntoItsOutputDirectoryAndASuiteIntoTheOutputRoot) {
  const auto a = fake_plan({fake_stage("train", StageKind::kTrain)}, "a");
  const auto b = fake_plan({fake_stage("train", StageKind::kTrain)}, "b");
  EXPECT_EQ(report_directory("/repo", {&a}), "/repo/test_tipc/output/a/lite");
  EXPECT_EQ(report_directory("/repo", {&a, &b}), "/repo/test_tipc/output");
}

TEST(ReportWriter, EveryReportFileIsWrittenAndNamedOnce) {
  test::FakeRun run;
  std::ostringstream out;
  ReportWriter writer = writer_for(run, out);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run_with(run, writer, p);
  EXPECT_EQ(writer.state_error(), "");
  const auto journal = run::Journal::load(run.output() + "/" + run::kJournalFileName);
  ASSERT_TRUE(journal) << journal.error().str();
  EXPECT_EQ(journal->runs_started.size(), 1u);
  EXPECT_EQ(journal->entries.size(), 2u);
  EXPECT_EQ(journal->runs_finished.size(), 1u);
  for (const ReportFile& file : report_files()) {
    EXPECT_FALSE(test::slurp(run.output() + "/" + file.name).empty()) << file.name;
  }
  EXPECT_EQ(out.str(), "tipc-run: reports in " + run.output() + " (report.json, junit.xml, summary.md, report.html)\n");
  const auto json = nlohmann::json::parse(test::slurp(run.output() + "/report.json"));
  EXPECT_EQ(json["verdict"], "PASS");
  EXPECT_EQ(json["counts"]["PASS"], 2);
}

TEST(ReportWriter, TheEnvironmentIsKeptWithTheStateAndEveryReportShowsIt) {
  test::FakeRun run;
  std::ostringstream out;
  ReportWriter writer = writer_for(run, out);
  Environment environment;
  environment.host = "bench-host-9";
  environment.interpreter = InterpreterInfo{"python3", "3.11.2", {}};
  writer.set_environment(environment);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run_with(run, writer, p);
  const auto kept = read_environment_file(run.output());  // for `tipc-run report DIR`
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->host, "bench-host-9");
  ASSERT_TRUE(writer.report() && writer.report()->environment);
  EXPECT_EQ(nlohmann::json::parse(test::slurp(run.output() + "/report.json"))["environment"]["host"], "bench-host-9");
  EXPECT_NE(test::slurp(run.output() + "/summary.md").find("- **Host**: bench-host-9\n"), std::string::npos);
  EXPECT_NE(test::slurp(run.output() + "/report.html").find("<dt>Host</dt><dd>bench-host-9</dd>"), std::string::npos);
}

// A benchmark_train run's train with a stand-in log of 4 GPUs: the record Paddle's benchmark
// database reads lands in LOG/index/ with the reports.
TEST(ReportWriter, ABenchmarkTrainRunWritesTheTipcBenchmarkRecordOfItsTrain) {
  test::FakeRun run;
  for (int i = 0; i < 4; ++i) run.options.resources.gpus.push_back({std::to_string(i), 1});
  std::ostringstream out;
  ReportWriter writer = writer_for(run, out);
  Environment environment;
  environment.interpreter = InterpreterInfo{"python3", "3.11.2", {{"torch", "2.1.2"}}};
  environment.repository = RepositoryState{"0123456789abcdef0123456789abcdef01234567", "main", false};
  writer.set_environment(environment);
  auto p = fake_plan({fake_stage("train", StageKind::kTrain, {}, 4)}, "det");
  p.mode = "benchmark_train";
  p.stages[0].train_setting = plan::TrainSetting{"8", "amp"};
  std::string log;
  for (int step = 1; step <= 6; ++step) {  // the first two steps are warm-up: 10, 12, 14, 16 are kept
    log += fmt::format("epoch: [1/1], global_step: {}, loss: {}, ips: {} samples/s\n", step, 4.0 - 0.5 * step,
                       step <= 2 ? 1.0 : 4.0 + 2 * step);
  }
  std::filesystem::create_directories(run.output("det"));
  std::ofstream(run.repo.path() / p.stages[0].log) << log;
  run_with(run, writer, p);
  const std::string repo = run.repo.path().filename().string();
  const std::string record_file = run.output("det") + "/index/" + repo + "_det_bs8_fp16_DP_N1C4_speed";
  ASSERT_TRUE(std::filesystem::exists(record_file)) << out.str();
  const auto record = nlohmann::json::parse(test::slurp(record_file));
  EXPECT_EQ(record["model_name"], "det_bs8_fp16_DP");
  EXPECT_EQ(record["device_num"], "N1C4");
  EXPECT_DOUBLE_EQ(record["ips"].get<double>(), 52.0);  // 13 on one card, 4 cards
  EXPECT_EQ(record["convergence_value"], "1");
  EXPECT_EQ(record["model_commit"], "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(record["frame_version"], "2.1.2");
}

TEST(ReportWriter, ReportHtmlLinksItsLogsRelativeToItsDirectory) {
  test::FakeRun run;
  run.script("train").exit_code = 1;
  std::ostringstream out;
  ReportWriter writer = writer_for(run, out);
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run_with(run, writer, p);
  const std::string html = test::slurp(run.output() + "/report.html");
  EXPECT_EQ(html.find("file://"), std::string::npos);
  EXPECT_NE(html.find("href=\"train.log\""), std::string::npos) << html.substr(0, 200);
}

TEST(ReportWriter, AnInterruptedRunStillListsEveryStage) {
  test::FakeRun run;
  run.options.jobs = 2;
  run.executor.default_script.seconds = 10;
  run.executor.interrupt_at = 5;
  std::ostringstream out;
  ReportWriter writer = writer_for(run, out);
  const auto p =
      fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"}),
                 fake_stage("export", StageKind::kExport, {"train"}), fake_stage("other", StageKind::kInfer)});
  const auto summary = run_with(run, writer, p);
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

// Root is not stopped by file modes: a directory where the file should be is.
TEST(ReportWriter, AJournalOrPlanFileThatCannotBeWrittenLeavesNoReportsAndSaysWhy) {
  for (const char* name : {run::kJournalFileName, plan::kPlanFileName}) {
    test::FakeRun run;
    const std::string blocked = run.output() + "/" + name;
    std::filesystem::create_directories(blocked + "/x");
    std::ostringstream out;
    ReportWriter writer = writer_for(run, out);
    const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
    run_with(run, writer, p);
    EXPECT_TRUE(writer.state_error().starts_with("cannot write " + blocked)) << writer.state_error();
    EXPECT_EQ(out.str(), "tipc-run: no reports: " + writer.state_error() + "\n");
    EXPECT_FALSE(writer.report().has_value());
    EXPECT_FALSE(std::filesystem::exists(run.output() + "/report.json")) << name;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
