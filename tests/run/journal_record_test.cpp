// The journal's record: every field of its three kinds of line reads back as appended, a
// compacted journal keeps each stage's last entry behind a version line, a cut or garbled
// line is left out, a newer journal is an error naming the file; and the two rules, the last
// entry of each stage and a pass with the same fingerprint.
#include "run/journal_record.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

JournalEntry full_entry() {
  return {.stage = "gpu/train",
          .run_id = "1714564800000-4242",
          .run_started = 1714564800.5,
          .fingerprint = "306775b30ca569f5",
          .result = Status::kFlaky,
          .reason = "passed on attempt 2 of 2",
          .seconds = 12.25,
          .started = 1714564801.0,
          .exit_code = 0,
          .signal = std::nullopt,
          .gpus = {"0", "3"},
          .log_findings = {"nan loss at line 9"},
          .job_id = "4711",
          .nodes = "node[1-2]",
          .attempts = {{Status::kFail, "exit code 1", 1714564801.0, 3.5, 1, std::nullopt, "/out/train.attempt1.log"},
                       {Status::kTimeout, "timed out", 1714564805.0, 4.0, std::nullopt, 9, "/out/train.attempt2.log"}},
          .gpu = {.samples = 12,
                  .memory_peak_mib = 10240.5,
                  .utilization_mean_percent = 87.25,
                  .utilization_peak_percent = 100,
                  .power_mean_watts = 250.5,
                  .power_peak_watts = 301,
                  .throttle_reasons = {"hw_slowdown", "sw_power_cap"}},
          .gpu_warnings = {"GPU 0: pid 4242 (python3 other.py) holds 2048 MiB; this run did not start it"}};
}

Journal loaded(const std::string& path) {
  auto journal = Journal::load(path);
  EXPECT_TRUE(journal) << journal.error().str();
  return journal ? std::move(*journal) : Journal{};
}

TEST(JournalRecord, EveryFieldOfEveryLineReadsBackAsAppended) {
  test::TempDir dir;
  const std::string path = (dir.path() / kJournalFileName).string();
  const RunStartedLine start{
      "r1",     1714564800.5,
      4,        {"0", "3"},
      "--gpus", true,
      "1.2.3",  {{"0", 1, 0, "NVIDIA H100 80GB HBM3", "GPU-9f8e"}, {"3", 1, 3, "NVIDIA H100 80GB HBM3", "GPU-1a2b"}}};
  JournalEntry minimal;
  minimal.stage = "gpu/eval";
  minimal.run_id = "r1";
  minimal.result = Status::kSkipped;
  const RunFinishedLine finish{"r1", 1714564900.0, 99.5, true};
  ASSERT_TRUE(Journal::append(path, start));
  ASSERT_TRUE(Journal::append(path, full_entry()));
  ASSERT_TRUE(Journal::append(path, minimal));
  ASSERT_TRUE(Journal::append(path, finish));
  const Journal journal = loaded(path);
  EXPECT_EQ(journal.runs_started, std::vector<RunStartedLine>{start});
  EXPECT_EQ(journal.entries, (std::vector<JournalEntry>{full_entry(), minimal}));
  EXPECT_EQ(journal.runs_finished, std::vector<RunFinishedLine>{finish});
  EXPECT_EQ(journal.version, 0) << "appended lines carry no version; compaction writes it";
}

TEST(JournalRecord, CompactionKeepsEachStagesLastEntryInOrderAfterAVersionLine) {
  test::TempDir dir;
  const std::string path = (dir.path() / kJournalFileName).string();
  JournalEntry train = full_entry(), eval = full_entry(), train_again = full_entry();
  eval.stage = "gpu/eval";
  train_again.result = Status::kFail;
  for (const auto* entry : {&train, &eval, &train_again}) ASSERT_TRUE(Journal::append(path, *entry));
  ASSERT_TRUE(Journal::append(path, RunFinishedLine{"r1", 2, 1, false}));
  ASSERT_TRUE(loaded(path).write_compacted(path));
  const auto lines = test::lines_of(test::slurp(path));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], R"({"schema":1})");
  const Journal compacted = loaded(path);
  EXPECT_EQ(compacted.version, kJournalVersion);
  EXPECT_EQ(compacted.entries, (std::vector<JournalEntry>{eval, train_again}));
  EXPECT_TRUE(compacted.runs_finished.empty());
}

TEST(JournalRecord, ACutOrGarbledLineIsLeftOutAndTheNextLineStartsOnItsOwn) {
  test::TempDir dir;
  const std::string path = (dir.path() / kJournalFileName).string();
  ASSERT_TRUE(Journal::append(path, full_entry()));
  std::ofstream(path, std::ios::app)
      << "[1, 2]\n{\"stage\": 3, \"result\": \"PASS\"}\n{\"stage\": \"gpu/ev";  // a crash mid-write
  JournalEntry eval = full_entry();
  eval.stage = "gpu/eval";
  ASSERT_TRUE(Journal::append(path, eval));
  EXPECT_EQ(loaded(path).entries, (std::vector<JournalEntry>{full_entry(), eval}));
}

TEST(JournalRecord, AnUnknownResultReadsAsUnresolvedNamingTheWord) {
  test::TempDir dir;
  const std::string path = dir.write("j.jsonl", R"({"stage": "train", "result": "MAYBE", "run_id": "r"})"
                                                "\n");
  const Journal journal = loaded(path);
  ASSERT_EQ(journal.entries.size(), 1u);
  EXPECT_EQ(journal.entries[0].result, Status::kUnresolved);
  EXPECT_EQ(journal.entries[0].reason, "the journal records an unknown result 'MAYBE'");
}

TEST(JournalRecord, AJournalOfANewerTipcRunIsAnErrorNamingTheFileAndLine) {
  test::TempDir dir;
  const std::string path = dir.write("j.jsonl", "{\"schema\": 1}\n{\"schema\": 2}\n");
  const auto journal = Journal::load(path);
  ASSERT_FALSE(journal);
  EXPECT_NE(journal.error().str().find(path + ":2"), std::string::npos) << journal.error().str();
  EXPECT_NE(journal.error().str().find("newer tipc-run (schema 2)"), std::string::npos) << journal.error().str();
}

TEST(JournalRecord, AMissingJournalIsEmpty) {
  test::TempDir dir;
  const Journal journal = loaded((dir.path() / "none.jsonl").string());
  EXPECT_TRUE(journal.entries.empty());
  EXPECT_TRUE(journal.runs_started.empty());
}

TEST(JournalRecord, TheLastEntryOfEachStageWinsAndOnlyAPassOfTheSameCommandIsPassed) {
  Journal journal;
  JournalEntry passed = full_entry(), failed = full_entry();
  passed.result = Status::kPass;
  failed.result = Status::kFail;
  journal.entries = {failed, passed};
  const auto last = journal.last_entries();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last.at("gpu/train"), &journal.entries[1]);
  EXPECT_TRUE(last.at("gpu/train")->passed_with("306775b30ca569f5"));
  EXPECT_FALSE(last.at("gpu/train")->passed_with("0000000000000000")) << "its command changed";
  EXPECT_FALSE(failed.passed_with("306775b30ca569f5"));
  EXPECT_TRUE(full_entry().passed_with("306775b30ca569f5")) << "FLAKY passed";
}

TEST(JournalRecord, TheLastTimeOfAStageIsOfItsLastEntryThatRan) {
  Journal journal;
  JournalEntry ran = full_entry(), interrupted = full_entry(), never = full_entry();
  interrupted.result = Status::kSkipped;  // an interrupt stopped it
  interrupted.seconds = 1;
  never.stage = "gpu/eval";
  never.started.reset();
  journal.entries = {ran, interrupted, never};
  EXPECT_EQ(journal.last_times(), (std::map<std::string, double>{{"gpu/train", 12.25}}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
