// The run's state files: the plan file and the journal, as the fake executor's runs
// leave them, and --resume reading the journal back.
#include "run/journal.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/version.h"
#include "support/fake_run.h"
#include "support/run_binary.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
using plan::StageKind;
using test::fake_plan;
using test::fake_stage;

Journal journal_of(const test::FakeRun& run) {
  auto journal = Journal::load(run.output() + "/" + kJournalFileName);
  EXPECT_TRUE(journal) << journal.error().str();
  return journal ? std::move(*journal) : Journal{};
}

TEST(Journal, ThePlanFileHoldsEveryStageWithAbsolutePaths) {
  test::FakeRun run;
  auto train = fake_stage("train", StageKind::kTrain);
  train.env = {{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"A", "1"}};
  const auto p = fake_plan({train, fake_stage("infer", StageKind::kInfer, {"train"}, 2)});
  run.run({&p});
  const auto plan = nlohmann::json::parse(test::slurp(run.output() + "/" + plan::kPlanFileName));
  EXPECT_EQ(plan["schema"], plan::kPlanFileVersion);
  EXPECT_EQ(plan["tool_version"], kToolVersion);
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
  const Journal journal = journal_of(run);
  ASSERT_EQ(journal.runs_started.size(), 1u);
  ASSERT_EQ(journal.entries.size(), 2u);
  ASSERT_EQ(journal.runs_finished.size(), 1u);
  const RunStartedLine& start = journal.runs_started[0];
  EXPECT_EQ(start.jobs, 1);
  EXPECT_EQ(start.gpus, std::vector<std::string>{"3"});
  EXPECT_EQ(start.resources, "--gpus");
  EXPECT_FALSE(start.resumed);
  const JournalEntry& train = journal.entries[0];
  EXPECT_EQ(train.stage, "train");
  EXPECT_EQ(train.result, Status::kPass);
  EXPECT_EQ(train.exit_code, 0);
  EXPECT_EQ(train.signal, std::nullopt);
  EXPECT_EQ(train.gpus, std::vector<std::string>{"3"});
  EXPECT_DOUBLE_EQ(train.started.value(), start.started);
  const JournalEntry& infer = journal.entries[1];
  EXPECT_DOUBLE_EQ(infer.started.value(), start.started + 1);  // virtual time
  EXPECT_EQ(infer.exit_code, 2);
  EXPECT_EQ(infer.log_findings, std::vector<std::string>{"python traceback at line 4"});
  EXPECT_DOUBLE_EQ(journal.runs_finished[0].finished, start.started + 2);
  EXPECT_FALSE(journal.runs_finished[0].interrupted);
}

TEST(Journal, AStageThatNeverRanHasNoStartAndASignalIsRecorded) {
  test::FakeRun run;
  run.script("train").signal = 9;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  const Journal journal = journal_of(run);
  ASSERT_EQ(journal.entries.size(), 2u);
  EXPECT_EQ(journal.entries[0].signal, 9);
  EXPECT_EQ(journal.entries[1].result, Status::kSkipped);
  EXPECT_EQ(journal.entries[1].started, std::nullopt);
}

TEST(Journal, AFlakyStageRecordsItsEarlierTriesWithTheirLogs) {
  test::FakeRun run;
  run.script("train").first_exit_codes = {1};
  run.options.retries = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const Journal journal = journal_of(run);
  ASSERT_EQ(journal.entries.size(), 1u);
  const JournalEntry& train = journal.entries[0];
  EXPECT_EQ(train.result, Status::kFlaky);
  EXPECT_EQ(train.seconds, 2.0);
  ASSERT_EQ(train.attempts.size(), 1u);
  const AttemptEntry& first = train.attempts[0];
  EXPECT_EQ(first.result, Status::kFail);
  EXPECT_EQ(first.reason, "exit code 1");
  EXPECT_EQ(first.exit_code, 1);
  EXPECT_EQ(first.seconds, 1.0);
  EXPECT_DOUBLE_EQ(first.started.value(), journal.runs_started.at(0).started);
  EXPECT_EQ(first.log, run.output() + "/train.attempt1.log");
}

TEST(Journal, ResumeSkipsAFlakyStageAsItSkipsAPass) {
  test::FakeRun run;
  run.script("train").first_exit_codes = {1};
  run.script("eval").exit_code = 2;
  run.options.retries = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval)});
  run.run({&p});
  EXPECT_EQ(passed_in_journal(run.repo.path().string(), {&p}).value(),
            std::set<std::string>{"test_tipc/configs/m.txt#train"});
}

TEST(Journal, ACutLineIsSkippedAndResumeStillWorks) {
  test::FakeRun run;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&p});
  std::ofstream(run.output() + "/" + kJournalFileName, std::ios::app) << "{\"stage\": \"ev";  // a crash mid-write
  EXPECT_EQ(journal_of(run).entries.size(), 2u);
  const auto passed = passed_in_journal(run.repo.path().string(), {&p});
  EXPECT_EQ(passed.value(), (std::set<std::string>{"test_tipc/configs/m.txt#train"}));

  run.script("eval").exit_code = 0;
  const auto summary = run.run({&p}, {}, true);
  EXPECT_EQ(summary.verdict().exit_code({false}), 0);
  const Journal journal = journal_of(run);
  ASSERT_EQ(journal.entries.size(), 3u);  // the first run's stage lines (compacted), then this run's eval
  ASSERT_EQ(journal.runs_started.size(), 1u);
  EXPECT_EQ(journal.entries[0].stage, "train");
  EXPECT_EQ(journal.entries[1].stage, "eval");
  EXPECT_TRUE(journal.runs_started[0].resumed);
  EXPECT_EQ(journal.entries[2].stage, "eval");
  EXPECT_EQ(journal.entries[2].run_id, journal.runs_started[0].run_id);
  EXPECT_NE(journal.entries[0].run_id, journal.runs_started[0].run_id) << "each line names the run that wrote it";
}

TEST(Journal, TheTimesOfStagesThatRanAreReadBackForTheNextRun) {
  test::FakeRun run;
  run.script("train").seconds = 3;
  run.script("eval").seconds = 2;
  run.script("eval").exit_code = 1;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"}),
                            fake_stage("infer", StageKind::kInfer, {"eval"})});
  run.run({&p});
  const auto seconds = recorded_durations(run.repo.path().string(), {&p}).value();
  EXPECT_EQ(seconds,
            (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 3}, {"test_tipc/configs/m.txt#eval", 2}}))
      << "a failed stage's time counts; a skipped one has none";

  run.script("eval").seconds = 4;  // --resume appends: the rerun eval's time wins, the train's stays
  run.script("eval").exit_code = 0;
  run.run({&p}, {}, true);
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}).value(),
            (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 3},
                                           {"test_tipc/configs/m.txt#eval", 4},
                                           {"test_tipc/configs/m.txt#infer", 1}}));
}

// A run restricted to some stages keeps the others' journal lines and times.
TEST(Journal, TimesOfStagesARestrictedRunLeftOutAreKept) {
  test::FakeRun run;
  run.script("train").seconds = 3;
  run.script("eval").seconds = 2;
  const auto full =
      fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  run.run({&full});
  run.script("train").seconds = 4;
  const auto only_train = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&only_train});
  EXPECT_EQ(journal_of(run).entries.size(), 3u) << "the first run's two stage lines, then the second run's one";
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&full}).value(),
            (std::map<std::string, double>{{"test_tipc/configs/m.txt#train", 4}, {"test_tipc/configs/m.txt#eval", 2}}));
  const auto times = nlohmann::json::parse(test::slurp(run.output() + "/" + kTimesFileName));
  EXPECT_EQ(times["schema"], kTimesVersion);
  EXPECT_EQ(times["seconds"], (nlohmann::json{{"eval", 2.0}, {"train", 4.0}}));
}

TEST(Journal, AnUnreadableTimesFileOnlyLosesTheEstimates) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  for (const char* bad :
       {"{\"schema\": 1, \"seconds\": [", "{\"schema\": \"1\", \"seconds\": {\"train\": 1}}",
        "{\"schema\": 1, \"seconds\": {\"train\": \"1\"}}", "[1]", "{\"schema\": 2, \"seconds\": {\"train\": 1}}"}) {
    run.run({&p});
    std::ofstream(run.output() + "/" + kTimesFileName, std::ios::trunc) << bad;
    std::ofstream(run.output() + "/" + kJournalFileName, std::ios::trunc);
    EXPECT_TRUE(recorded_durations(run.repo.path().string(), {&p}).value().empty()) << bad;
    EXPECT_EQ(run.run({&p}).verdict().exit_code({false}), 0) << bad;
    EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}).value().size(), 1u)
        << "rewritten at the end of the run";
  }
}

// Compacting it would lose what a newer tipc-run wrote: --resume, the estimates and the run stop.
TEST(Journal, AJournalOfANewerTipcRunIsAnErrorNamingIt) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  const std::string journal = run.output() + "/" + kJournalFileName;
  std::ofstream(journal, std::ios::app) << "{\"schema\": 2}\n";
  const auto passed = passed_in_journal(run.repo.path().string(), {&p});
  ASSERT_FALSE(passed);
  EXPECT_NE(passed.error().str().find(journal), std::string::npos) << passed.error().str();
  const auto durations = recorded_durations(run.repo.path().string(), {&p});
  ASSERT_FALSE(durations);
  EXPECT_NE(durations.error().str().find("newer tipc-run (schema 2)"), std::string::npos) << durations.error().str();
  JournalWriter writer({run.repo.path().string(), false, "", "", {}, {}});
  run_stages({&p}, run.executor, writer, run.options, [] { return false; });
  EXPECT_NE(writer.write_error().find(journal), std::string::npos) << writer.write_error();
  EXPECT_NE(test::slurp(journal).find("{\"schema\": 2}\n"), std::string::npos) << "not compacted away";
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
  EXPECT_EQ(recorded_durations(run.repo.path().string(), {&p}).value().at("test_tipc/configs/m.txt#train"), 5)
      << "the interrupted 1 s is not what the train takes";
}

TEST(Journal, CompactionKeepsEachStagesLastLineNamingItsRun) {
  test::FakeRun run;
  const auto p = fake_plan({fake_stage("train", StageKind::kTrain), fake_stage("eval", StageKind::kEval, {"train"})});
  for (int i = 0; i < 3; ++i) run.run({&p});
  const Journal journal = journal_of(run);
  ASSERT_EQ(journal.entries.size(), 4u) << "two compacted lines, then the last run's two: the journal does not grow";
  const std::string path = run.output() + "/" + kJournalFileName;
  ASSERT_TRUE(journal.write_compacted(path));
  const Journal compacted = journal_of(run);
  EXPECT_EQ(compacted.version, kJournalVersion);
  ASSERT_EQ(compacted.entries.size(), 2u);
  EXPECT_TRUE(compacted.runs_started.empty());
  EXPECT_EQ(compacted.entries[0].stage, "train");
  EXPECT_EQ(compacted.entries[1].run_id, journal.runs_started.at(0).run_id);
  EXPECT_EQ(compacted.entries[1].run_started, journal.runs_started.at(0).started);
}

TEST(Journal, AnOldStageLineTakesItsRunFromTheRunLineAboveIt) {
  test::TempDir dir;
  const std::string path = dir.write("j.jsonl", R"({"run": "started", "run_id": "r1", "started": 7})"
                                                "\n"
                                                R"({"stage": "train", "result": "PASS"})"
                                                "\n");
  const auto journal = Journal::load(path);
  ASSERT_TRUE(journal) << journal.error().str();
  EXPECT_EQ(journal->version, 0) << "no version line: an older tipc-run's journal";
  ASSERT_EQ(journal->entries.size(), 1u);
  EXPECT_EQ(journal->entries[0].run_id, "r1");
  EXPECT_EQ(journal->entries[0].run_started, 7);
}

TEST(Journal, AChangedCommandIsNotResumed) {
  test::FakeRun run;
  auto p = fake_plan({fake_stage("train", StageKind::kTrain)});
  run.run({&p});
  p.stages[0].argv.push_back("--epochs=2");
  EXPECT_TRUE(passed_in_journal(run.repo.path().string(), {&p}).value().empty());
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

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
