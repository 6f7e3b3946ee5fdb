// The run's state files: the plan file and the journal, as the fake executor's runs
// leave them, and --resume reading the journal back.
#include "run/journal.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/fake_run.h"
#include "support/run_binary.h"

namespace tipc::run {
namespace {
using plan::StageKind;
using test::fake_plan;
using test::fake_stage;

std::vector<nlohmann::json> journal_of(const test::FakeRun& run) {
  return read_journal(run.output() + "/" + kJournalFileName);
}

TEST(Journal, ThePlanFileHoldsEveryStageWithAbsolutePaths) {
  test::FakeRun run;
  auto train = fake_stage("train", StageKind::kTrain);
  train.env = {{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"A", "1"}};
  const auto p = fake_plan({train, fake_stage("infer", StageKind::kInfer, {"train"}, 2)});
  run.run({&p});
  const auto plan = nlohmann::json::parse(test::slurp(run.output() + "/" + kPlanFileName));
  EXPECT_EQ(plan["schema"], kStateSchema);
  EXPECT_EQ(plan["tool_version"], TIPC_VERSION);
  EXPECT_EQ(plan["config"], "test_tipc/configs/m.txt");
  EXPECT_EQ(plan["mode"], "lite");
  EXPECT_EQ(plan["model"], "m");
  EXPECT_EQ(plan["dialect"], "paddleocr");
  EXPECT_EQ(plan["output_dir"], run.output());
  ASSERT_EQ(plan["stages"].size(), 2u);
  const auto& stage = plan["stages"][0];
  EXPECT_EQ(stage["id"], "train");
  EXPECT_EQ(stage["kind"], "train");
  EXPECT_EQ(stage["argv"], nlohmann::json::array({"python3", "train.py"}));
  EXPECT_EQ(stage["env"]["CUDA_VISIBLE_DEVICES"], nullptr);
  EXPECT_EQ(stage["env"]["A"], "1");
  EXPECT_EQ(stage["cwd"], run.repo.path().string());
  EXPECT_EQ(stage["log"], run.output() + "/train.log");
  EXPECT_EQ(stage["fingerprint"], stage_fingerprint(train));
  EXPECT_EQ(plan["stages"][1]["deps"], nlohmann::json::array({"train"}));
  EXPECT_EQ(plan["stages"][1]["needs"]["gpus"], 2);
}

TEST(Journal, RunLinesFrameOneLinePerFinishedStage) {
  test::FakeRun run;
  run.options.resources.gpus = {{"3", 1}};
  run.script("infer").exit_code = 2;
  run.script("infer").log_findings = {"python traceback at line 4"};
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain, {}, 1), fake_stage("infer", StageKind::kInfer)});
  run.run({&p});
  const auto lines = journal_of(run);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["run"], "started");
  EXPECT_EQ(lines[0]["jobs"], 1);
  EXPECT_EQ(lines[0]["gpus"], nlohmann::json::array({"3"}));
  EXPECT_EQ(lines[0]["resources"], "--gpus");
  EXPECT_EQ(lines[0]["resumed"], false);
  const double started = lines[0]["started"];
  EXPECT_EQ(lines[1]["stage"], "train");
  EXPECT_EQ(lines[1]["result"], "PASS");
  EXPECT_EQ(lines[1]["exit_code"], 0);
  EXPECT_EQ(lines[1]["signal"], nullptr);
  EXPECT_EQ(lines[1]["gpus"], nlohmann::json::array({"3"}));
  EXPECT_DOUBLE_EQ(lines[1]["started"].get<double>(), started);
  EXPECT_DOUBLE_EQ(lines[2]["started"].get<double>(), started + 1);  // virtual time
  EXPECT_EQ(lines[2]["exit_code"], 2);
  EXPECT_EQ(lines[2]["log_findings"], nlohmann::json::array({"python traceback at line 4"}));
  EXPECT_EQ(lines[3]["run"], "finished");
  EXPECT_DOUBLE_EQ(lines[3]["finished"].get<double>(), started + 2);
  EXPECT_EQ(lines[3]["interrupted"], false);
}

TEST(Journal, AStageThatNeverRanHasNoStartAndASignalIsRecorded) {
  test::FakeRun run;
  run.script("train").signal = 9;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  const auto lines = journal_of(run);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1]["signal"], 9);
  EXPECT_EQ(lines[2]["result"], "SKIPPED");
  EXPECT_EQ(lines[2]["started"], nullptr);
}

TEST(Journal, AFlakyStageRecordsItsEarlierTriesWithTheirLogs) {
  test::FakeRun run;
  run.script("train").first_exit_codes = {1};
  run.options.retries = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const auto lines = journal_of(run);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1]["result"], "FLAKY");
  EXPECT_EQ(lines[1]["seconds"], 2.0);
  ASSERT_EQ(lines[1]["attempts"].size(), 1u);
  const auto& first = lines[1]["attempts"][0];
  EXPECT_EQ(first["result"], "FAIL");
  EXPECT_EQ(first["reason"], "exit code 1");
  EXPECT_EQ(first["exit_code"], 1);
  EXPECT_EQ(first["seconds"], 1.0);
  EXPECT_DOUBLE_EQ(first["started"].get<double>(), lines[0]["started"].get<double>());
  EXPECT_EQ(first["log"], run.output() + "/train.attempt1.log");
}

TEST(Journal, ResumeSkipsAFlakyStageAsItSkipsAPass) {
  test::FakeRun run;
  run.script("train").first_exit_codes = {1};
  run.script("eval").exit_code = 2;
  run.options.retries = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  EXPECT_EQ(passed_in_journal(run.repo.path().string(), {&p}),
            std::set<std::string>{"test_tipc/configs/m.txt#train"});
}

TEST(Journal, ACutLineIsSkippedAndResumeStillWorks) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  std::ofstream(run.output() + "/" + kJournalFileName, std::ios::app) << "{\"stage\": \"ev";  // a crash mid-write
  EXPECT_EQ(journal_of(run).size(), 4u);
  const auto passed = passed_in_journal(run.repo.path().string(), {&p});
  EXPECT_EQ(passed, (std::set<std::string>{"test_tipc/configs/m.txt#train"}));

  run.script("eval").exit_code = 0;
  const auto summary = run.run({&p}, {}, true);
  EXPECT_EQ(summary.verdict().exit_code({false}), 0);
  const auto lines = journal_of(run);
  ASSERT_EQ(lines.size(), 5u);  // the first run's stage lines (compacted), then started, eval, finished
  EXPECT_EQ(lines[0]["stage"], "train");
  EXPECT_EQ(lines[1]["stage"], "eval");
  EXPECT_EQ(lines[2]["run"], "started");
  EXPECT_EQ(lines[2]["resumed"], true);
  EXPECT_EQ(lines[3]["stage"], "eval");
  EXPECT_EQ(lines[3]["run_id"], lines[2]["run_id"]);
  EXPECT_NE(lines[0]["run_id"], lines[2]["run_id"]) << "each line names the run that wrote it";
}

TEST(Journal, TheTimesOfStagesThatRanAreReadBackForTheNextRun) {
  test::FakeRun run;
  run.script("train").seconds = 3;
  run.script("eval").seconds = 2;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"}),
                            fake_stage("infer", StageKind::kInfer, {"eval"})});
  run.run({&p});
  const auto seconds = recorded_durations(run.repo.path().string(), {&p});
  EXPECT_EQ(seconds, (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 3},
                                                    {"test_tipc/configs/m.txt#eval", 2}}))
      << "a failed stage's time counts; a skipped one has none";

  run.script("eval").seconds = 4;  // --resume appends: the rerun eval's time wins, the train's stays
  run.script("eval").exit_code = 0;
  run.run({&p}, {}, true);
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}),
            (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 3},
                                           {"test_tipc/configs/m.txt#eval", 4},
                                           {"test_tipc/configs/m.txt#infer", 1}}));
}

// A run restricted to some stages keeps the others' journal lines and times.
TEST(Journal, TimesOfStagesARestrictedRunLeftOutAreKept) {
  test::FakeRun run;
  run.script("train").seconds = 3;
  run.script("eval").seconds = 2;
  const auto full = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&full});
  run.script("train").seconds = 4;
  const auto only_train = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&only_train});
  EXPECT_EQ(journal_of(run).size(), 5u) << "the first run's two stage lines, then the second run's three";
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&full}),
            (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 4}, {"test_tipc/configs/m.txt#eval", 2}}));
  const auto times = nlohmann::json::parse(test::slurp(run.output() + "/" + kTimesFileName));
  EXPECT_EQ(times["schema"], kStateSchema);
  EXPECT_EQ(times["seconds"], (nlohmann::json{{"eval", 2.0}, {"train", 4.0}}));
}

TEST(Journal, AnUnreadableTimesFileOnlyLosesTheEstimates) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  for (const char* bad : {"{\"schema\": 1, \"seconds\": [", "{\"schema\": \"1\", \"seconds\": {\"train\": 1}}",
                          "{\"schema\": 1, \"seconds\": {\"train\": \"1\"}}", "[1]"}) {
    run.run({&p});
    std::ofstream(run.output() + "/" + kTimesFileName, std::ios::trunc) << bad;
    std::ofstream(run.output() + "/" + kJournalFileName, std::ios::trunc);
    EXPECT_TRUE(recorded_durations(run.repo.path().string(), {&p}).empty()) << bad;
    EXPECT_EQ(run.run({&p}).verdict().exit_code({false}), 0) << bad;
    EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}).size(), 1u) << "rewritten at the end of the run";
  }
}

TEST(Journal, AStageAnInterruptStoppedLeavesItsEarlierTime) {
  test::FakeRun run;
  run.script("train").seconds = 5;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  run.script("train").seconds = 30;
  run.executor.interrupt_at = run.executor.seconds_now() + 1;
  const auto summary = run.run({&p});
  ASSERT_TRUE(summary.interrupted);
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}).at("test_tipc/configs/m.txt#train"), 5)
      << "the interrupted 1 s is not what the train takes";
}

TEST(Journal, CompactionKeepsEachStagesLastLineNamingItsRun) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  for (int i = 0; i < 3; ++i) run.run({&p});
  const auto lines = journal_of(run);
  ASSERT_EQ(lines.size(), 6u) << "two compacted lines, then the last run's four: the journal does not grow";
  const std::string path = run.output() + "/" + kJournalFileName;
  compact_journal(path);
  const auto compacted = journal_of(run);
  ASSERT_EQ(compacted.size(), 2u);
  EXPECT_EQ(compacted[0]["stage"], "train");
  EXPECT_EQ(compacted[1]["run_id"], lines[2]["run_id"]);
  EXPECT_EQ(compacted[1]["run_started"], lines[2]["started"]);
}

TEST(Journal, AnOldStageLineTakesItsRunFromTheRunLineAboveIt) {
  test::TempDir dir;
  const std::string path = dir.write("j.jsonl", R"({"run": "started", "run_id": "r1", "started": 7})" "\n"
                                                R"({"stage": "train", "result": "PASS"})" "\n");
  const auto lines = read_journal(path);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1]["run_id"], "r1");
  EXPECT_EQ(lines[1]["run_started"], 7);
}

TEST(Journal, AChangedCommandIsNotResumed) {
  test::FakeRun run;
  auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  p.stages[0].argv.push_back("--epochs=2");
  EXPECT_TRUE(passed_in_journal(run.repo.path().string(), {&p}).empty());
}

// Root is not stopped by file modes: a directory where the journal should be is.
TEST(Journal, AJournalThatCannotBeWrittenIsAWriteErrorNamingTheFileAndTheReason) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  const std::string journal = run.output() + "/" + kJournalFileName;
  std::filesystem::create_directories(journal + "/x");
  JournalWriter writer({run.repo.path().string(), false, "", "", {}, {}});
  EXPECT_EQ(writer.write_error(), "");
  run_stages({&p}, run.executor, writer, run.options, [] { return false; });
  EXPECT_EQ(writer.write_error(), "cannot write " + journal + ": Is a directory");
}

}  // namespace
}  // namespace tipc::run
