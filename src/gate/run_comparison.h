#pragma once
// A new run against a baseline, stage by stage and figure by figure: what regressed, what
// improved, what stayed within its noise, what is new and what is gone. Pure: both runs are
// snapshots (run_snapshot.h), however they were loaded (an output directory, a bundle, the
// run history).
#include <optional>
#include <string>
#include <vector>

#include "gate/gate_rules.h"
#include "gate/run_snapshot.h"
#include "stats/change.h"

namespace tipc::gate {

enum class Class { kRegressed, kImproved, kUnchanged, kNew, kGone };
const char* to_string(Class c);  // "REGRESSED", "IMPROVED", "UNCHANGED", "NEW", "GONE"

// The one rule of a failing comparison: a regression under a `fail` severity (a stage
// result's regression is always one).
inline bool fails(Class c, Severity severity) { return c == Class::kRegressed && severity == Severity::kFail; }

struct FigureComparison {
  std::string name, unit;
  Class result = Class::kUnchanged;
  Severity severity = Severity::kFail;
  stats::Comparison comparison;  // medians, change, p-value, why (both sides present)
  std::size_t base_samples = 0, current_samples = 0;
  std::string rule;  // the gates: rule that applied ("" = the defaults)
};

struct StageComparison {
  std::string config, mode, stage;   // the stage's identity in both runs
  Class result = Class::kUnchanged;  // of its result: PASS -> FAIL regressed, FAIL -> PASS improved (fixed)
  std::optional<run::Status> base_result, current_result;  // nullopt: not in that run
  std::string why;                                         // "PASS -> FAIL", "not in the baseline", ...
  std::vector<FigureComparison> figures;                   // gated figures of the stage, in figure order
};

struct RunComparison {
  std::vector<StageComparison> stages;  // the new run's order, then the stages gone
  // A `fail` regression: a stage result or a fail-severity figure REGRESSED.
  bool failed() const;
  std::size_t count(Class c) const;  // over stage results and figures
};

RunComparison compare_runs(const RunSnapshot& base, const RunSnapshot& current, const GateRules& rules);

}  // namespace tipc::gate
