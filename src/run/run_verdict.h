#pragma once
// The verdict of a run, or of a whole plan as its reports describe it: the one rule behind
// every exit code and every report's headline (console, summary.md, report.html, JUnit,
// report.json), so that no run looks green unless something ran.
//
//   INTERRUPTED  the run was stopped (or cut short)                              exit 130
//   FAIL         a stage FAILed, TIMED OUT or is UNRESOLVED                       exit 1
//   NOTHING RAN  no stage passed or failed: all UNSUPPORTED or SKIPPED, or none    exit 1 (0 with --allow-nothing)
//   PARTIAL      passed, but some stages could not run (UNSUPPORTED, SKIPPED)     exit 0 (1 with --strict when UNSUPPORTED)
//   PASS         every stage passed                                              exit 0
#include <map>
#include <string>
#include <vector>

#include "run/outcome.h"

namespace tipc::run {

// What a verdict is judged from: one stage's result.
struct StageResult {
  Status result = Status::kUnresolved;
  std::string reason;
  bool earlier = false;  // the result of an earlier run, kept because this one did not run the stage
};

// What the command line asks of the exit code.
struct VerdictRules {
  bool strict = false;         // --strict: an UNSUPPORTED stage fails the run
  bool allow_nothing = false;  // --allow-nothing: a run in which nothing ran passes
};

enum class VerdictKind { kPass, kPartial, kNothingRan, kFail, kInterrupted };

struct RunVerdict {
  VerdictKind kind = VerdictKind::kNothingRan;
  int stages = 0;
  int passed = 0;
  int failed = 0;          // FAIL, TIMEOUT, UNRESOLVED
  int failed_earlier = 0;  // of those, results of an earlier run
  int unsupported = 0;
  int could_not_run = 0;   // UNSUPPORTED and SKIPPED
  // Why stages could not run: reason -> how many stages; dependents of a stage that could
  // not run are counted under kAfterOneThatCouldNotRun.
  std::map<std::string, int> reasons;

  // "PASS", "PARTIAL", "NOTHING RAN", "FAIL", "INTERRUPTED": the closed vocabulary of report.json.
  const char* word() const;
  // The headline of every report: "PASS (partial: 3 of 13 stages could not run)", "FAIL (2 of 13 stages failed)".
  std::string headline() const;
  // One line that says why: "nothing could run here: 10 stages UNSUPPORTED: needs 1 GPU; none available";
  // "" for a plain PASS.
  std::string explanation() const;
  int exit_code(const VerdictRules& rules) const;
};

// A run that left invalid configs out never exits 0: a 0 becomes 2 (a config error); a
// failure's 1 and an interrupt's 130 stand.
int exit_code_with_invalid_configs(int exit_code, bool any_invalid_config);

inline constexpr const char* kAfterOneThatCouldNotRun = "a dependency could not run";

// The one rule: judges the stages' results (of a run, or of a whole plan).
RunVerdict judge(const std::vector<StageResult>& stages, bool interrupted);

}  // namespace tipc::run
