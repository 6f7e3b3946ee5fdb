// The "check finished" event: read from the check's --json file after its stage finished.
#include "report/check_events.h"

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>

#include "align/checks/diff_summary.h"
#include "report/run_report.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

// Every event, as a line, in order.
class Recorder : public run::Listener, public CheckListener {
 public:
  void run_started(const run::RunInfo&) override { events.push_back("run started"); }
  void stage_started(const run::StageRecord& r) override { events.push_back("started " + r.stage->id); }
  void stage_finished(const run::StageRecord& r) override { events.push_back("finished " + r.stage->id); }
  void check_finished(const run::StageRecord& r, const CheckDetails& check) override {
    events.push_back("check " + r.stage->id + " " + check_kind_word(check) + " " + std::to_string(check.values.size()) +
                     (check.passed ? " passed" : " failed"));
  }
  void run_finished(const run::RunSummary&) override { events.push_back("run finished"); }
  std::vector<std::string> events;
};

class CheckEventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    check_.id = "export/check/eager_vs_onnx";
    check_.kind = plan::StageKind::kCheck;
    check_.argv = {"/proc/self/exe", "diff", "a.npy", "b.npy"};
    check_.cwd = ".";
    check_.check = plan::CheckSpec{plan::CheckKind::kDiff, "check.json"};
    export_.id = "export";
    export_.kind = plan::StageKind::kExport;
    export_.argv = {"python3", "export.py"};
  }
  run::StageRecord record(const plan::Stage& stage, const std::string& log, double started = 0) {
    run::StageRecord r;
    r.plan = &plan_;
    r.stage = &stage;
    r.start_seconds = started;
    r.end_seconds = started < 0 ? -1 : started + 1;
    r.log_path = (dir_.path() / log).string();
    return r;
  }
  void run(const std::vector<run::StageRecord>& finished) {
    source_.run_started({{&plan_}, finished.size(), 1, {{}, "none"}});
    for (const auto& r : finished) source_.stage_finished(r);
    source_.run_finished({});
  }

  test::TempDir dir_;
  plan::Plan plan_;
  // The check stage, writing its result to `result_file` instead (kept for the records).
  const plan::Stage& check_writing(const std::string& result_file) {
    plan::Stage& stage = other_checks_.emplace_back(check_);
    stage.check->result_file = result_file;
    return stage;
  }

  plan::Stage check_, export_;
  std::deque<plan::Stage> other_checks_;
  Recorder recorder_;
  CheckEventSource source_{dir_.path().string(), recorder_, recorder_};
};

// A failed diff's result file, as tipc-run diff writes it.
const std::string kDiffJson =
    align::to_json(align::DiffSummary{
                       "a.npy",
                       "b.npy",
                       "mean,max",
                       1e-6,
                       false,
                       {{"logits", false, "", {4}, {{align::Statistic::kMean, 1e-7}, {align::Statistic::kMax, 2e-5}}}},
                       {}})
        .dump();

TEST_F(CheckEventsTest, ACheckStageThatRanAndWroteItsFileIsFollowedByCheckFinished) {
  dir_.write("check.json", kDiffJson);
  dir_.write("export.json", kDiffJson);  // beside a stage that is no check: not read
  run({record(export_, "export.log"), record(check_, "check.log")});
  EXPECT_EQ(recorder_.events,
            (std::vector<std::string>{"run started", "finished export", "finished export/check/eager_vs_onnx",
                                      "check export/check/eager_vs_onnx diff 2 failed", "run finished"}));
}

TEST_F(CheckEventsTest, NoFileNoStartOrAnEarlierRunsFileSendsNoCheckEvent) {
  run({record(check_writing("missing.json"), "missing.log"), record(check_writing("never.json"), "never.log", -1)});
  dir_.write("old.json", kDiffJson);
  std::filesystem::last_write_time(dir_.path() / "old.json",
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  run({record(check_writing("old.json"), "old.log")});
  for (const auto& event : recorder_.events) EXPECT_FALSE(event.starts_with("check ")) << event;
}

TEST_F(CheckEventsTest, AnUnreadableFileIsAFailedCheckWithANote) {
  dir_.write("check.json", "{\"passed\": tru");
  CheckDetails seen;
  struct Keep : run::Listener, CheckListener {
    explicit Keep(CheckDetails& out) : out(out) {}
    void check_finished(const run::StageRecord&, const CheckDetails& check) override { out = check; }
    CheckDetails& out;
  } keep(seen);
  CheckEventSource source(dir_.path().string(), keep, keep);
  source.run_started({{&plan_}, 1, 1, {{}, "none"}});
  source.stage_finished(record(check_, "check.log"));
  EXPECT_EQ(seen.kind, CheckKind::kDiff);
  EXPECT_FALSE(seen.passed);
  ASSERT_EQ(seen.notes.size(), 1u);
  EXPECT_NE(seen.notes[0].find("cannot read"), std::string::npos);
  EXPECT_NE(seen.notes[0].find("check.json"), std::string::npos) << seen.notes[0];
}

TEST_F(CheckEventsTest, TheResultFileIsTheOneTheStageNamesNotTheLogsTwin) {
  dir_.write("check.json", kDiffJson);  // beside the log, but the stage writes elsewhere
  run({record(check_writing("results/diff.json"), "check.log")});
  for (const auto& event : recorder_.events) EXPECT_FALSE(event.starts_with("check ")) << event;
  dir_.write("results/diff.json", kDiffJson);
  recorder_.events.clear();
  run({record(check_writing("results/diff.json"), "check.log")});
  EXPECT_EQ(recorder_.events.at(2), "check export/check/eager_vs_onnx diff 2 failed");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
