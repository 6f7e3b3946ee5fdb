#pragma once
// A comparison flattened into the rows every rendering shows (console table, Markdown,
// JUnit): one per stage whose result changed, one per gated figure; values already worded.
#include <string>
#include <vector>

#include "gate/run_comparison.h"

namespace tipc::gate {

struct ComparisonRow {
  Class result = Class::kUnchanged;
  Severity severity = Severity::kFail;
  std::string config, mode, stage;
  std::string figure;         // "result" for the stage's result
  std::string base, current;  // "PASS", "120.5 samples/s", "-" when absent
  std::string change;         // "-20.00%", "" for results
  std::string p_value;        // "1.08e-05", "" when the test was not used
  std::string why;
  // The row counts against the comparison: a result or fail-severity figure REGRESSED.
  bool fails() const { return gate::fails(result, severity); }
};

// Stage-result rows for stages whose result class is not UNCHANGED, then every figure row,
// in stage order.
std::vector<ComparisonRow> comparison_rows(const RunComparison& comparison);

// "2 regressed (1 failing), 1 improved, 40 unchanged, 1 new, 0 gone"
std::string comparison_summary(const std::vector<ComparisonRow>& rows);

}  // namespace tipc::gate
