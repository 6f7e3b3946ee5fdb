// Building the report model from the state a run left on disk: complete for runs that
// were cut short, the last journal entry winning, cut lines skipped, resumed stages,
// check files, log tails, every plan of a tree.
#include "report/report_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/version.h"
#include "run/stack_dump.h"
#include "support/fake_run.h"
#include "support/run_binary.h"
#include "support/text_lines.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using plan::StageKind;
using test::fake_plan;
using test::fake_stage;

const StageReport& stage(const RunReport& report, const std::string& id) {
  for (const auto& s : report.plans.at(0).stages) {
    if (s.id == id) return s;
  }
  throw std::runtime_error("no stage " + id);
}

void append(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::app) << text; }

std::string journal(const test::FakeRun& run) { return run.output() + "/" + run::kJournalFileName; }

TEST(ReportLoader, AFinishedRunHasEveryStageWithItsResult) {
  test::FakeRun run;
  run.options.resources.gpus = {{"0", 1}};
  run.script("eval").exit_code = 3;
  const auto p =
      fake_plan({fake_stage("train", StageKind::kTrain, {}, 1), fake_stage("eval", StageKind::kEval, {"train"}),
                 fake_stage("infer", StageKind::kInfer, {"eval"}), fake_stage("big", StageKind::kTrain, {}, 4)});
  run.run({&p});
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->tool_version, kToolVersion);
  EXPECT_FALSE(report->interrupted);
  ASSERT_TRUE(report->started && report->finished);
  EXPECT_DOUBLE_EQ(*report->finished - *report->started, 2.0);
  EXPECT_EQ(report->gpus, std::vector<std::string>{"0"});
  EXPECT_EQ(report->resources_source, "--gpus");
  ASSERT_EQ(report->plans.size(), 1u);
  EXPECT_EQ(report->plans[0].config, "test_tipc/configs/m.txt");
  EXPECT_EQ(report->plans[0].output_dir, run.output());
  ASSERT_EQ(report->plans[0].stages.size(), 4u);
  EXPECT_EQ(stage(*report, "train").result, run::Status::kPass);
  EXPECT_EQ(stage(*report, "train").gpus, std::vector<std::string>{"0"});
  EXPECT_EQ(stage(*report, "train").gpus_needed, 1);
  EXPECT_EQ(stage(*report, "eval").result, run::Status::kFail);
  EXPECT_EQ(stage(*report, "eval").exit_code, 3);
  EXPECT_DOUBLE_EQ(*stage(*report, "eval").seconds, 1.0);
  EXPECT_EQ(stage(*report, "infer").result, run::Status::kSkipped);
  EXPECT_EQ(stage(*report, "infer").reason, "dependency eval FAIL");
  EXPECT_FALSE(stage(*report, "infer").started);
  EXPECT_EQ(stage(*report, "big").result, run::Status::kUnsupported);
  EXPECT_EQ(report->verdict().exit_code({}), 1);
}

TEST(ReportLoader, AFlakyStageHasItsEarlierTriesWithTheirLogsAndTails) {
  test::FakeRun run;
  run.repo.write("test_tipc/output/m/lite/train.log", "Traceback\nValueError: first try\n");
  run.script("train").first_exit_codes = {1};
  run.options.retries = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  const StageReport& train = stage(*report, "train");
  EXPECT_EQ(train.result, run::Status::kFlaky);
  EXPECT_EQ(train.log_tail, "") << "it passed in the end";
  ASSERT_EQ(train.attempts.size(), 1u);
  EXPECT_EQ(train.attempts[0].result, run::Status::kFail);
  EXPECT_EQ(train.attempts[0].exit_code, 1);
  EXPECT_EQ(train.attempts[0].log, run.output() + "/train.attempt1.log");
  EXPECT_EQ(train.attempts[0].log_tail, "Traceback\nValueError: first try\n");
  EXPECT_EQ(report->verdict().headline(), "PASS (1 of 1 stage flaky)");
}

TEST(ReportLoader, SeveralDirectoriesMergeAndAConfigInTwoOfThemIsAnError) {
  test::FakeRun one, two;
  const auto m = fake_plan({fake_stage("train", StageKind::kTrain)}, "m");
  const auto n = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)}, "n");
  one.run({&m});
  two.run({&n});
  const auto merged = load_merged_report({one.output("m"), two.output("n")});
  ASSERT_TRUE(merged) << merged.error().str();
  ASSERT_EQ(merged->plans.size(), 2u);
  EXPECT_EQ(merged->plans[0].stages.size() + merged->plans[1].stages.size(), 3u);
  const auto twice = load_merged_report({one.output("m"), one.output("m")});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().str().find("test_tipc/configs/m.txt in mode lite is also in " + one.output("m") + "/" +
                                     plan::kPlanFileName),
            std::string::npos)
      << twice.error().str();
  EXPECT_FALSE(load_merged_report({one.output("m"), one.repo.path().string() + "/nowhere"}));
}

TEST(ReportLoader, AKilledRunListsEveryStageAndTheUnstartedOnesAreSkipped) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"}),
                            fake_stage("export", StageKind::kExport, {"train"})});
  run.run({&p});
  // What a SIGKILL after the train leaves: the version line, the run line and the train's line only.
  const auto lines = test::lines_of(test::slurp(journal(run)));
  std::ofstream(journal(run), std::ios::trunc) << lines[0] << "\n" << lines[1] << "\n" << lines[2] << "\n";
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_TRUE(report->interrupted);
  EXPECT_FALSE(report->finished);
  EXPECT_EQ(report->verdict().exit_code({}), 130);
  EXPECT_EQ(stage(*report, "train").result, run::Status::kPass);
  for (const char* id : {"eval", "export"}) {
    EXPECT_EQ(stage(*report, id).result, run::Status::kSkipped);
    EXPECT_EQ(stage(*report, id).reason, "not started (the run ended before it)");
  }
}

TEST(ReportLoader, ACutLastLineIsSkippedAndTheLastEntryWins) {
  test::FakeRun run;
  run.script("train").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  append(journal(run), R"({"stage": "train", "result": "PASS", "reason": "again", "started": 5, "seconds": 2})"
                       "\n");
  append(journal(run), R"({"stage": "eval", "result": "FA)");
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").result, run::Status::kPass);
  EXPECT_EQ(stage(*report, "train").reason, "again");
  EXPECT_EQ(stage(*report, "eval").result, run::Status::kPass);
}

TEST(ReportLoader, AnUnknownResultInTheJournalIsAFailureThatSaysSoNeverAPass) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  append(journal(run), R"({"stage": "train", "result": "MOSTLY_PASS", "started": 5, "seconds": 2})"
                       "\n");
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").result, run::Status::kUnresolved);
  EXPECT_EQ(stage(*report, "train").reason, "the journal records an unknown result 'MOSTLY_PASS'");
  EXPECT_EQ(report->verdict().kind, run::VerdictKind::kFail);
}

TEST(ReportLoader, AnUnknownStageKindInThePlanFileIsAnErrorNamingIt) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const std::string plan_file = run.output() + "/.tipc-plan.json";
  std::ifstream in(plan_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("\"kind\": \"train\"");
  ASSERT_NE(at, std::string::npos) << text;
  std::ofstream(plan_file) << text.replace(at, 15, "\"kind\": \"bake\"");
  const auto report = load_run_report(run.output());
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("unknown stage kind 'bake'"), std::string::npos) << report.error().str();
  EXPECT_NE(report.error().str().find(".tipc-plan.json"), std::string::npos) << report.error().str();
}

TEST(ReportLoader, AResumedRunKeepsTheEarlierPassesOfUnchangedCommandsOnly) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval),
                      fake_stage("export", StageKind::kExport)});
  run.run({&p});
  run.script("eval").exit_code = 0;
  p.stages[2].argv.push_back("--changed");
  run.run({&p}, {}, true);
  // Cut the second run short after its eval: export (changed) has only the first run's PASS.
  const auto lines = test::lines_of(test::slurp(journal(run)));
  std::ofstream out(journal(run), std::ios::trunc);
  for (std::size_t i = 0; i + 2 < lines.size(); ++i) out << lines[i] << "\n";
  out.close();
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_TRUE(report->resumed);
  EXPECT_TRUE(stage(*report, "train").resumed);
  EXPECT_EQ(stage(*report, "train").result, run::Status::kPass);
  EXPECT_FALSE(stage(*report, "eval").resumed);
  EXPECT_EQ(stage(*report, "eval").result, run::Status::kPass);
  EXPECT_EQ(stage(*report, "export").result, run::Status::kSkipped);
  EXPECT_EQ(stage(*report, "export").reason, "not run since its command changed (its last result was PASS)");
}

TEST(ReportLoader, AFilteredRunKeepsTheResultsOfTheStagesItDidNotRunWithTheirRunsTime) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  const auto whole = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval),
                                fake_stage("export", StageKind::kExport)});
  run.run({&whole});
  const double first_run = *load_run_report(run.output())->started;
  auto only_train = whole;
  only_train.stages.resize(1);
  run.run({&only_train}, {}, false, {&whole});
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_EQ(report->plans[0].stages.size(), 3u) << "the whole plan";
  EXPECT_FALSE(stage(*report, "train").earlier_run) << "this run's own result";
  const StageReport& eval = stage(*report, "eval");
  EXPECT_EQ(eval.result, run::Status::kFail);
  ASSERT_TRUE(eval.earlier_run);
  EXPECT_DOUBLE_EQ(*eval.earlier_run->started, first_run);
  EXPECT_EQ(stage(*report, "export").result, run::Status::kPass);
  EXPECT_TRUE(stage(*report, "export").earlier_run);
  EXPECT_EQ(report->verdict().kind, run::VerdictKind::kFail);
  EXPECT_EQ(report->verdict().failed_earlier, 1);

  run.script("eval").exit_code = 0;  // a later full run replaces everything
  run.run({&whole});
  const auto full = load_run_report(run.output());
  for (const auto& s : full->plans[0].stages) EXPECT_FALSE(s.earlier_run) << s.id;
  EXPECT_EQ(full->verdict().kind, run::VerdictKind::kPass);
}

TEST(ReportLoader, AStageNoRunHasRunIsSkippedAsNotSelected) {
  test::FakeRun run;
  const auto whole = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  auto only_train = whole;
  only_train.stages.resize(1);
  run.run({&only_train}, {}, false, {&whole});
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "eval").result, run::Status::kSkipped);
  EXPECT_EQ(stage(*report, "eval").reason, "not selected (--only or -k), and no earlier run has a result");
  EXPECT_EQ(report->verdict().headline(), "PASS (partial: 1 of 2 stages could not run)");
}

TEST(ReportLoader, AnInterruptedRunKeepsTheEarlierResultsOfTheStagesItNeverStarted) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  run.script("train").seconds = 30;
  run.executor.interrupt_at = run.executor.seconds_now() + 1;
  ASSERT_TRUE(run.run({&p}).interrupted);
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").result, run::Status::kSkipped) << "this run stopped it";
  EXPECT_FALSE(stage(*report, "train").earlier_run);
  EXPECT_EQ(stage(*report, "eval").result, run::Status::kFail) << "never started: its earlier result stays";
  EXPECT_TRUE(stage(*report, "eval").earlier_run);
}

TEST(ReportLoader, AStageThatDidNotPassCarriesItsLogTail) {
  test::FakeRun run;
  run.script("train").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  std::string log;
  for (int i = 1; i <= 40; ++i) log += "line " + std::to_string(i) + "\n";
  run.repo.write("test_tipc/output/m/lite/train.log", log);
  run.repo.write("test_tipc/output/m/lite/eval.log", "a stale log of an earlier run\n");
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  const std::string& tail = stage(*report, "train").log_tail;
  EXPECT_TRUE(tail.starts_with("line 11\n")) << tail;
  EXPECT_TRUE(tail.ends_with("line 40\n")) << tail;
  EXPECT_EQ(stage(*report, "eval").log_tail, "");  // it never started
}

TEST(ReportLoader, AFailedStageCarriesItsLogsFirstErrorLine) {
  test::FakeRun run;
  run.script("train").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  run.repo.write("test_tipc/output/m/lite/train.log",
                 "step 1\nTraceback (most recent call last):\n  x\nKeyError: 'lr'\n");
  run.repo.write("test_tipc/output/m/lite/eval.log", "Error: a pass says nothing\n");
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").error_line, "KeyError: 'lr'");
  EXPECT_EQ(stage(*report, "eval").error_line, "");  // it passed
}

TEST(ReportLoader, ARelativeDirectoryGivesAbsolutePaths) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const fs::path before = fs::current_path();
  fs::current_path(run.repo.path());
  const auto report = load_run_report("test_tipc/output/m/lite");
  fs::current_path(before);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->plans[0].output_dir, run.output());
  EXPECT_EQ(stage(*report, "train").log, run.output() + "/train.log");
}

TEST(ReportLoader, TheEnvironmentComesFromTheStateFileBesideThePlan) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_FALSE(report->environment);  // none recorded
  Environment environment;
  environment.host = "node-4";
  environment.repository = RepositoryState{"abc", "main", false};
  ASSERT_TRUE(write_environment_file(run.output(), environment));
  report = load_run_report(run.output());
  ASSERT_TRUE(report && report->environment);
  EXPECT_EQ(report->environment->host, "node-4");
  EXPECT_EQ(report->environment->repository->branch, "main");
}

TEST(ReportLoader, ACheckStageGetsItsJsonFileButNotAStaleOne) {
  test::FakeRun run;
  auto check = fake_stage("check", StageKind::kCheck);
  check.argv = {"tipc-run", "diff", "a.npy", "b.npy"};
  check.check = plan::CheckSpec{plan::CheckKind::kDiff, "test_tipc/output/m/lite/check.json"};
  auto late = fake_stage("late", StageKind::kCheck);
  late.check = plan::CheckSpec{plan::CheckKind::kDiff, "test_tipc/output/m/lite/late.json"};
  const auto p = fake_plan({check, late});
  run.run({&p});
  const std::string json = R"({"check": "diff", "reference": "a.npy", "candidate": "b.npy", "method": "mean",
    "threshold": 1e-6, "passed": false, "warnings": [],
    "keys": [{"key": "logits", "passed": false, "reason": "mean diff", "shape": [2], "values": {"mean": 0.5}}]})";
  const std::string path = run.repo.write("test_tipc/output/m/lite/check.json", json);
  auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_TRUE(stage(*report, "check").check);
  const CheckDetails& details = *stage(*report, "check").check;
  EXPECT_EQ(details.kind, CheckKind::kDiff);
  ASSERT_EQ(details.values.size(), 1u);
  EXPECT_EQ(details.values[0].label, "logits: mean");
  EXPECT_EQ(details.compared_files[0], (run.repo.path() / "a.npy").string());
  EXPECT_FALSE(stage(*report, "late").check);  // no JSON file

  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(1));
  report = load_run_report(run.output());
  EXPECT_FALSE(stage(*report, "check").check);  // older than the stage: an earlier run's

  run.repo.write("test_tipc/output/m/lite/check.json", "{\"cut");
  report = load_run_report(run.output());
  ASSERT_TRUE(stage(*report, "check").check);
  EXPECT_FALSE(stage(*report, "check").check->passed);
  EXPECT_NE(stage(*report, "check").check->notes.at(0).find("cannot read"), std::string::npos);

  run.repo.write("test_tipc/output/m/lite/check.json", R"({"check": "diff", "reference": 1})");
  report = load_run_report(run.output());
  ASSERT_TRUE(stage(*report, "check").check);
  const std::string note = stage(*report, "check").check->notes.at(0);
  EXPECT_NE(note.find("check.json: field 'reference': expected a string"), std::string::npos) << note;
}

TEST(ReportLoader, EveryPlanOfATreeIsReportedAlsoOfConfigsRunOneAtATime) {
  test::FakeRun run;
  const auto a = fake_plan({fake_stage("train", StageKind::kTrain)}, "a");
  const auto b = fake_plan({fake_stage("train", StageKind::kTrain)}, "b");
  const auto c = fake_plan({fake_stage("train", StageKind::kTrain)}, "c");
  run.run({&a});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  run.run({&b, &c});  // a suite
  const auto report = load_run_report((run.repo.path() / "test_tipc/output").string());
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_EQ(report->plans.size(), 3u);
  EXPECT_EQ(report->plans[0].model, "a");
  EXPECT_EQ(report->plans[1].model, "b");
  EXPECT_EQ(report->plans[2].model, "c");
  EXPECT_EQ(report->plans[0].stages.at(0).result, run::Status::kPass);
  EXPECT_FALSE(report->plans[0].stages.at(0).earlier_run) << "a's result is of a's own run";
  EXPECT_FALSE(report->interrupted);
}

TEST(ReportLoader, AMovedOutputDirectoryStillFindsItsLogs) {
  test::FakeRun run;
  run.script("train").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  run.repo.write("test_tipc/output/m/lite/train.log", "boom\n");
  test::TempDir elsewhere;
  fs::copy(run.output(), elsewhere.path() / "artifact", fs::copy_options::recursive);
  const auto report = load_run_report((elsewhere.path() / "artifact").string());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").log, (elsewhere.path() / "artifact/train.log").string());
  EXPECT_EQ(stage(*report, "train").log_tail, "boom\n");
}

TEST(ReportLoader, BadInputIsAnErrorThatSaysWhere) {
  test::TempDir dir;
  auto report = load_run_report(dir.path().string());
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("no .tipc-plan.json at or under this directory"), std::string::npos)
      << report.error().str();
  EXPECT_FALSE(load_run_report((dir.path() / "missing").string()));
  dir.write("x/.tipc-plan.json", "{\"stages\": 3}");
  report = load_run_report(dir.path().string());
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("x/.tipc-plan.json"), std::string::npos) << report.error().str();
  dir.write("x/.tipc-plan.json", "{\"schema\": 99, \"stages\": []}");
  report = load_run_report(dir.path().string());
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("newer tipc-run"), std::string::npos) << report.error().str();
  dir.write("x/.tipc-plan.json", "{\"stages\": []}");
  const std::string journal = dir.write("x/.tipc-journal.jsonl", "{\"schema\": 2}\n");
  report = load_run_report(dir.path().string());
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find(journal + ":1"), std::string::npos) << report.error().str();
  EXPECT_NE(report.error().str().find("newer tipc-run (schema 2)"), std::string::npos) << report.error().str();
}

TEST(ReportLoader, AStageHasTheGpuFiguresAndWarningsOfItsJournalLineAndTheRunTheGpusTheDriverDescribed) {
  test::FakeRun run;
  run.options.resources.gpus = {{"0", 1, 0, "NVIDIA H100 80GB HBM3", "GPU-9f8e7d6c"}, {"1", 1, std::nullopt, "", ""}};
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain, {}, 1), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  append(journal(run), R"({"stage": "train", "result": "PASS", "started": 5, "seconds": 2, "gpus": ["0"], )"
                       R"("gpu": {"samples": 3, "memory_peak_mib": 10240, "utilization_mean_percent": 80, )"
                       R"("throttle_reasons": ["hw_slowdown"]}, "gpu_warnings": ["GPU 0: pid 4242 holds 2048 MiB"]})"
                       "\n");
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_EQ(report->gpu_devices.size(), 1u);  // the one the driver described
  EXPECT_EQ(report->gpu_devices[0].index, 0);
  EXPECT_EQ(report->gpu_devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(report->gpu_devices[0].uuid, "GPU-9f8e7d6c");
  EXPECT_EQ(report->gpus, (std::vector<std::string>{"0", "1"}));
  const StageReport& train = stage(*report, "train");
  EXPECT_EQ(train.gpu.samples, 3);
  EXPECT_EQ(train.gpu.memory_peak_mib, 10240);
  EXPECT_EQ(train.gpu.utilization_mean_percent, 80);
  EXPECT_FALSE(train.gpu.power_mean_watts);  // not given: unset, not 0
  EXPECT_EQ(train.gpu.throttle_reasons, std::vector<std::string>{"hw_slowdown"});
  EXPECT_EQ(train.gpu_warnings, std::vector<std::string>{"GPU 0: pid 4242 holds 2048 MiB"});
  EXPECT_TRUE(stage(*report, "eval").gpu.empty());
  EXPECT_TRUE(stage(*report, "eval").gpu_warnings.empty());
}

TEST(ReportLoader, ATimedOutStageCarriesTheFirstFramesWhereItHung) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  append(journal(run), R"({"stage": "train", "result": "TIMEOUT", "reason": "no output for 600 s", )"
                       R"("started": 5, "seconds": 600})"
                       "\n");
  const std::string dump = "step 3\n" + std::string(run::kStackDumpMarker) +
                           "\nFatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n"
                           "  File \"/repo/hang.py\", line 5 in spin\n";
  run.repo.write("test_tipc/output/m/lite/train.log", dump);
  run.repo.write("test_tipc/output/m/lite/eval.log", dump);  // a failure, not a timeout
  const auto report = load_run_report(run.output());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(stage(*report, "train").stack, std::vector<std::string>{"hang.py:5 in spin"});
  EXPECT_EQ(stage(*report, "train").error_line, "");  // the dump's "Fatal Python error" is tipc-run's doing
  EXPECT_TRUE(stage(*report, "eval").stack.empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
