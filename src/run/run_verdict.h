#pragma once
// The verdict of a run, or of a whole plan as its reports describe it: the one rule behind
// every exit code and every report's headline (console, summary.md, report.html, JUnit,
// report.json, `tipc-run report`), so that no run looks green unless something ran. In
// order of precedence:
//
//   INTERRUPTED  the run was stopped (or cut short)                                exit 130
//   FAIL         a stage FAILed, TIMED OUT or is UNRESOLVED                         exit 1
//   FAIL         a config of the suite was invalid (left out; the others ran)        exit 2
//   NOTHING RAN  none of this run's own stages passed or failed (all UNSUPPORTED or
//                SKIPPED, or none selected), whatever earlier runs left              exit 5 (0 with --allow-nothing)
//   FAIL         it regressed against its baseline (--baseline: a failing regression) exit 6 (1 with --strict when UNSUPPORTED)
//   PARTIAL      passed, but some stages could not run (UNSUPPORTED, SKIPPED)       exit 0 (1 with --strict when UNSUPPORTED)
//   PASS         every stage passed                                                exit 0
#include <string>
#include <vector>

#include "run/outcome.h"

namespace tipc::run {

// What a verdict is judged from: one stage's result.
struct StageResult {
  Status result = Status::kUnresolved;
  std::string reason;
  bool earlier = false;  // not this run's own: an earlier run's result, or a stage this run did not select
  // Where it lies, for grouping the stages that could not run by their root: its plan (a
  // suite runs several, and ids are unique within one), its id and the ids it depends on.
  int plan = 0;
  std::string id{};
  std::vector<std::string> deps{};
  bool resumed = false;  // an earlier run's PASS that this run resumed on (--resume): it counts as run
  // The runner's replayed housekeeping (mkdir, rm, cd): its PASS alone tests nothing, so a run
  // of nothing else is a run in which nothing ran; a failed one still fails the run.
  bool setup = false;
};

// Stages that could not run (UNSUPPORTED, SKIPPED) because of one reason: the reason of the
// stage at their root, which every stage after it that could not run because of it shares.
struct CouldNotRunGroup {
  std::string reason;                    // "" when none was given
  Status status = Status::kUnsupported;  // of the stages in it
  std::vector<std::string> ids;          // in the order of the stages given
  std::vector<int> plans;                // the plan of each id (StageResult::plan)
};

// The one grouping of the stages that could not run, behind the console's summary and every
// report's explanation: by root reason, in the order of each group's first stage. A stage
// whose reason is "dependency ID UNSUPPORTED" joins the group of ID; one whose reason is
// "dependency ID (not selected) REASON" (a stage --only or -k left out that could never run
// here) has REASON.
std::vector<CouldNotRunGroup> group_could_not_run(const std::vector<StageResult>& stages);

// What the command line asks of the exit code.
struct VerdictRules {
  bool strict = false;         // --strict: an UNSUPPORTED stage fails the run
  bool allow_nothing = false;  // --allow-nothing: a run in which nothing ran passes
};

enum class VerdictKind { kPass, kPartial, kNothingRan, kFail, kInterrupted };

// The configs a run was given and those it left out as invalid (a suite plans the others).
struct ConfigCount {
  int given = 0;
  int invalid = 0;
};

// The failing regressions of the run's comparison with the run --baseline named (gate
// compares; the verdict only counts them).
struct BaselineRegressions {
  int count = 0;
  std::string baseline;  // what it was compared with: "run 1", a directory
};

struct RunVerdict {
  VerdictKind kind = VerdictKind::kNothingRan;
  int stages = 0;
  int passed = 0;          // PASS and FLAKY
  int flaky = 0;           // FLAKY: passed only when --retries ran it again
  int failed = 0;          // FAIL, TIMEOUT, UNRESOLVED
  int failed_earlier = 0;  // of those, results of an earlier run
  int unsupported = 0;
  int could_not_run = 0;  // UNSUPPORTED and SKIPPED
  int own_stages = 0;     // the stages of this run (not an earlier run's results)
  int setup_passed = 0;   // of this run's own stages, setup stages that passed
  bool own_ran = false;   // a stage of this run other than setup passed, or any failed (or was resumed on its PASS)
  ConfigCount configs;
  BaselineRegressions regressions;
  std::vector<CouldNotRunGroup> could_not_run_groups;  // group_could_not_run

  // "PASS", "PARTIAL", "NOTHING RAN", "FAIL", "INTERRUPTED": the closed vocabulary of report.json.
  const char* word() const;
  // The headline of every report: "PASS (partial: 3 of 13 stages could not run)", "FAIL (2 of 13
  // stages failed)", "FAIL (1 of 4 configs invalid)", "PASS (1 of 13 stages flaky)".
  std::string headline() const;
  // One line that says why: "nothing could run here: 10 stages: needs 1 GPU; none available";
  // "" for a plain PASS.
  std::string explanation() const;
  // A stage failed, in this run or (when this run ran anything) in an earlier one whose
  // result it did not replace: a run of nothing is NOTHING RAN whatever was left before.
  bool stage_failed() const { return failed > 0 && own_ran; }
  // A passing run that regressed against its baseline: FAIL, exit 6.
  bool regressed() const { return regressions.count > 0 && own_ran; }
  // 0, 1, 2 (a config left out as invalid), 5 (nothing ran), 6 (regressed) or 130: the table above.
  int exit_code(const VerdictRules& rules) const;
};

// The one rule: judges the stages' results (of a run, or of a whole plan as its reports
// describe it: `earlier` marks the results this run did not produce) and the configs the
// run left out, and the failing regressions against its baseline.
RunVerdict judge(const std::vector<StageResult>& stages, bool interrupted, ConfigCount configs = {},
                 BaselineRegressions regressions = {});

}  // namespace tipc::run
