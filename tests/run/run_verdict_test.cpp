// The one rule behind every exit code and report headline: nothing ran is no pass, a
// partial pass says how many stages could not run and why, grouped by the reason at their root.
#include "run/run_verdict.h"

#include <gtest/gtest.h>

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

constexpr const char* kNoGpu = "needs 1 GPU; 0 available (none)";

StageResult passed() { return {Status::kPass, "", false}; }
StageResult no_gpu(const std::string& id = "gpu-train", int plan = 0) {
  return {Status::kUnsupported, kNoGpu, false, plan, id, {}};
}
StageResult after(const std::string& dep, const std::string& id, int plan = 0) {
  return {Status::kUnsupported, "dependency " + dep + " UNSUPPORTED", false, plan, id, {"cpu-train", dep}};
}

TEST(RunVerdict, ARunInWhichEveryStageWasUnsupportedRanNothingAndFailsUnlessAllowed) {
  const RunVerdict verdict = judge({no_gpu("a"), no_gpu("b"), after("a", "c")}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kNothingRan);
  EXPECT_EQ(verdict.exit_code({}), 5) << "its own code: CI tells it from a failure";
  EXPECT_EQ(verdict.exit_code({.allow_nothing = true}), 0);
  EXPECT_EQ(verdict.exit_code({.strict = true, .allow_nothing = true}), 1) << "--strict: UNSUPPORTED fails";
  EXPECT_EQ(verdict.headline(), "NOTHING RAN (3 of 3 stages could not run)");
  EXPECT_EQ(verdict.explanation(), "nothing could run here: 3 stages: needs 1 GPU; 0 available (none)");
}

TEST(RunVerdict, StagesThatCouldNotRunAreGroupedByTheReasonAtTheirRoot) {
  const std::vector<StageResult> stages = {
      after("export", "infer", 1),  // before its dependency: the order given is not relied on
      no_gpu("train", 1),
      after("train", "export", 1),
      {Status::kUnsupported,
       "dependency train (not selected) needs 2 nodes; the local executor runs on one machine",
       false,
       0,
       "eval",
       {}},
      {Status::kUnsupported, "needs 2 nodes; the local executor runs on one machine", false, 0, "train", {}},
      after("train", "export", 0),  // plan 0's train: its own reason, not plan 1's
      passed(),
      {Status::kSkipped, "dependency cpu-train FAIL", false, 0, "cpu-infer", {"cpu-train"}},
  };
  const std::vector<CouldNotRunGroup> groups = group_could_not_run(stages);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].reason, kNoGpu);
  EXPECT_EQ(groups[0].ids, (std::vector<std::string>{"infer", "train", "export"}));
  EXPECT_EQ(groups[1].reason, "needs 2 nodes; the local executor runs on one machine");
  EXPECT_EQ(groups[1].ids, (std::vector<std::string>{"eval", "train", "export"}));
  EXPECT_EQ(groups[1].status, Status::kUnsupported);
  EXPECT_EQ(groups[2].reason, "dependency cpu-train FAIL") << "a failed dependency is no stage that could not run";
  EXPECT_EQ(groups[2].status, Status::kSkipped);
  EXPECT_EQ(judge(stages, false).explanation(),
            "could not run: 3 stages: needs 1 GPU; 0 available (none) | 3 stages: needs 2 nodes; the local executor "
            "runs on one machine | 1 stage: dependency cpu-train FAIL");
}

TEST(RunVerdict, NoStageAtAllRanNothing) {
  const RunVerdict verdict = judge({}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kNothingRan);
  EXPECT_EQ(verdict.exit_code({}), 5);
  EXPECT_EQ(verdict.explanation(), "nothing ran: no stage was planned or selected");
}

// A runner that died before it started a program leaves only its replayed housekeeping (a
// longtail repository's runner sourced a file that was not there, after its mkdir): that
// setup passing tests nothing. A setup that fails still fails the run.
TEST(RunVerdict, ARunOfNothingButSetupRanNothing) {
  StageResult setup{Status::kPass, "", false, 0, "whole_infer/setup/1", {}};
  setup.setup = true;
  const RunVerdict verdict = judge({setup}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kNothingRan);
  EXPECT_EQ(verdict.exit_code({}), 5);
  EXPECT_EQ(verdict.headline(), "NOTHING RAN (only setup: 1 stage)");
  EXPECT_EQ(verdict.explanation(), "nothing ran but the runner's setup: the plan has no stage that tests anything");
  EXPECT_EQ(judge({setup, passed()}, false).kind, VerdictKind::kPass) << "setup beside a stage that ran";
  setup.result = Status::kFail;
  EXPECT_EQ(judge({setup}, false).kind, VerdictKind::kFail);
  EXPECT_EQ(judge({setup}, false).exit_code({}), 1);
}

TEST(RunVerdict, APassWithStagesThatCouldNotRunIsPartialWithItsCount) {
  const RunVerdict verdict = judge({passed(), passed(), no_gpu(), {Status::kSkipped, "not started", false}}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kPartial);
  EXPECT_STREQ(verdict.word(), "PARTIAL");
  EXPECT_EQ(verdict.headline(), "PASS (partial: 2 of 4 stages could not run)");
  EXPECT_EQ(verdict.explanation(), "could not run: 1 stage: needs 1 GPU; 0 available (none) | 1 stage: not started");
  EXPECT_EQ(verdict.exit_code({}), 0);
  EXPECT_EQ(verdict.exit_code({.strict = true}), 1);
}

TEST(RunVerdict, FailureOutranksEverythingButAnInterrupt) {
  const std::vector<StageResult> stages = {passed(), no_gpu(), {Status::kTimeout, "timed out", true}};
  EXPECT_EQ(judge(stages, false).kind, VerdictKind::kFail);
  EXPECT_EQ(judge(stages, false).headline(), "FAIL (1 of 3 stages failed, 1 of them in an earlier run)");
  EXPECT_EQ(judge(stages, false).exit_code({.allow_nothing = true}), 1);
  EXPECT_EQ(judge(stages, true).kind, VerdictKind::kInterrupted);
  EXPECT_EQ(judge(stages, true).exit_code({}), 130);
}

TEST(RunVerdict, EveryStagePassedIsAPlainPass) {
  const RunVerdict verdict = judge({passed(), passed()}, false);
  EXPECT_EQ(verdict.headline(), "PASS");
  EXPECT_EQ(verdict.explanation(), "");
  EXPECT_EQ(verdict.exit_code({.strict = true}), 0);
}

// One row of the verdict table: the stages' results, and what every report and the exit code say.
struct VerdictCase {
  const char* name;
  std::vector<StageResult> stages;
  bool interrupted = false;
  ConfigCount configs{1, 0};
  const char* headline;
  int exit_code;
};

StageResult earlier(Status result) { return {result, "", true}; }
StageResult resumed_pass() { return {Status::kPass, "", true, 0, "", {}, true}; }

TEST(RunVerdict, TheVerdictTable) {
  const std::vector<VerdictCase> table = {
      {"pass", {passed(), passed()}, false, {1, 0}, "PASS", 0},
      {"partial", {passed(), no_gpu()}, false, {1, 0}, "PASS (partial: 1 of 2 stages could not run)", 0},
      {"failure", {passed(), {Status::kFail, "exit code 1"}}, false, {1, 0}, "FAIL (1 of 2 stages failed)", 1},
      {"timeout",
       {{Status::kTimeout, "timed out after 5 s"}, no_gpu()},
       false,
       {1, 0},
       "FAIL (1 of 2 stages failed)",
       1},
      {"nothing ran", {no_gpu("a"), no_gpu("b")}, false, {1, 0}, "NOTHING RAN (2 of 2 stages could not run)", 5},
      {"invalid config in a suite", {passed()}, false, {3, 1}, "FAIL (1 of 3 configs invalid)", 2},
      {"invalid config and a failure",
       {{Status::kFail, "exit code 1"}},
       false,
       {3, 1},
       "FAIL (1 of 1 stage failed; 1 of 3 configs invalid)",
       1},
      {"invalid config, nothing else ran", {no_gpu()}, false, {2, 1}, "FAIL (1 of 2 configs invalid)", 2},
      {"filtered: only stages that cannot run, earlier passes",
       {earlier(Status::kPass), no_gpu()},
       false,
       {1, 0},
       "NOTHING RAN (1 of 2 stages could not run)",
       5},
      {"filtered: nothing ran, an earlier failure stands",
       {earlier(Status::kFail), no_gpu()},
       false,
       {1, 0},
       "NOTHING RAN (1 of 2 stages could not run)",
       5},
      {"filtered: a pass, an earlier failure stands",
       {earlier(Status::kFail), passed()},
       false,
       {1, 0},
       "FAIL (1 of 2 stages failed, 1 of them in an earlier run)",
       1},
      {"filtered: a pass, earlier passes", {earlier(Status::kPass), passed()}, false, {1, 0}, "PASS", 0},
      {"resumed: every stage resumed", {resumed_pass(), resumed_pass()}, false, {1, 0}, "PASS", 0},
      {"resumed: the rest could not run",
       {resumed_pass(), no_gpu()},
       false,
       {1, 0},
       "PASS (partial: 1 of 2 stages could not run)",
       0},
      {"interrupted", {passed(), {Status::kSkipped, "not started"}}, true, {1, 0}, "INTERRUPTED", 130},
      {"interrupted with a failure", {{Status::kFail, "exit code 1"}}, true, {3, 1}, "INTERRUPTED", 130},
  };
  for (const VerdictCase& row : table) {
    const RunVerdict verdict = judge(row.stages, row.interrupted, row.configs);
    EXPECT_EQ(verdict.headline(), row.headline) << row.name;
    EXPECT_EQ(verdict.exit_code({}), row.exit_code) << row.name;
  }
}

TEST(RunVerdict, AllowNothingAcceptsOnlyNothingRanAndStrictFailsItsUnsupported) {
  const RunVerdict nothing = judge({no_gpu()}, false);
  EXPECT_EQ(nothing.exit_code({.allow_nothing = true}), 0);
  EXPECT_EQ(nothing.exit_code({.strict = true}), 1);
  const RunVerdict invalid = judge({no_gpu()}, false, {2, 1});
  EXPECT_EQ(invalid.exit_code({.allow_nothing = true}), 2) << "a config error is not accepted with nothing";
  EXPECT_STREQ(invalid.word(), "FAIL");
}

TEST(RunVerdict, FlakyStagesPassAndTheHeadlineCountsThem) {
  const StageResult flaky{Status::kFlaky, "passed on attempt 2 of 2", false};
  const RunVerdict pass = judge({passed(), flaky}, false);
  EXPECT_EQ(pass.kind, VerdictKind::kPass);
  EXPECT_EQ(pass.passed, 2);
  EXPECT_EQ(pass.flaky, 1);
  EXPECT_EQ(pass.headline(), "PASS (1 of 2 stages flaky)");
  EXPECT_EQ(pass.exit_code({.strict = true}), 0);
  EXPECT_EQ(judge({flaky, no_gpu()}, false).headline(), "PASS (partial: 1 of 2 stages could not run; 1 flaky)");
  EXPECT_EQ(judge({flaky, {Status::kFail, "exit code 1", false}}, false).headline(),
            "FAIL (1 of 2 stages failed; 1 flaky)");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
