// The one rule behind every exit code and report headline: nothing ran is no pass, a
// partial pass says how many stages could not run and why, grouped by reason.
#include "run/run_verdict.h"

#include <gtest/gtest.h>

namespace tipc::run {
namespace {

StageResult passed() { return {Status::kPass, "", false}; }
StageResult no_gpu() { return {Status::kUnsupported, "needs 1 GPU; 0 available (none)", false}; }
StageResult after_no_gpu() { return {Status::kUnsupported, "dependency gpu-train UNSUPPORTED", false}; }

TEST(RunVerdict, ARunInWhichEveryStageWasUnsupportedRanNothingAndFailsUnlessAllowed) {
  const RunVerdict verdict = judge({no_gpu(), no_gpu(), after_no_gpu()}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kNothingRan);
  EXPECT_EQ(verdict.exit_code({}), 1);
  EXPECT_EQ(verdict.exit_code({.allow_nothing = true}), 0);
  EXPECT_EQ(verdict.exit_code({.strict = true, .allow_nothing = true}), 1) << "--strict: UNSUPPORTED fails";
  EXPECT_EQ(verdict.headline(), "NOTHING RAN (3 of 3 stages could not run)");
  EXPECT_EQ(verdict.explanation(),
            "nothing could run here: 2 stages: needs 1 GPU; 0 available (none) | 1 stage: a dependency could not run");
}

TEST(RunVerdict, NoStageAtAllRanNothing) {
  const RunVerdict verdict = judge({}, false);
  EXPECT_EQ(verdict.kind, VerdictKind::kNothingRan);
  EXPECT_EQ(verdict.exit_code({}), 1);
  EXPECT_EQ(verdict.explanation(), "nothing ran: no stage was planned or selected");
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

}  // namespace
}  // namespace tipc::run
