#pragma once
// Whether a metric changed between a baseline and a new run, telling noise from change.
// A change smaller than the rule's floor is never one. Where both sides carry per-step
// samples (at least `min_samples` each, after warm-up), the Mann-Whitney U test must reject
// "one distribution" at `alpha` AND the medians must differ by the relative (and absolute)
// threshold: a long run makes a tiny shift significant, and a single stall can make a large
// median gap on few samples; each guard covers the other. With fewer samples, the thresholds
// alone decide.
#include <optional>
#include <span>
#include <string>

namespace tipc::stats {

enum class Better { kHigher, kLower };
enum class Change { kRegressed, kImproved, kUnchanged };
const char* to_string(Change change);  // "REGRESSED", "IMPROVED", "UNCHANGED"

struct ChangeRule {
  Better better = Better::kHigher;
  double relative_threshold = 0.05;          // |new - base| / |base| that counts
  std::optional<double> absolute_threshold;  // and at least this much in the metric's unit
  double minimum_change = 0.01;              // below it: unchanged, whatever the test says
  double alpha = 0.05;                       // the test's significance level
  std::size_t min_samples = 4;               // per side, for the test to be used
};

struct Comparison {
  Change change = Change::kUnchanged;
  double base = 0;                      // the baseline's median (or its single value)
  double current = 0;                   // the new run's
  double relative_change = 0;           // (current - base) / |base|; 0 when base is 0 and current too
  std::optional<double> p_value;        // when the test was used
  std::optional<double> rank_biserial;  // its effect size, when the test was used
  std::string why;                      // one line: which guard decided
};

// Per-step samples (or one value each) of the metric in the baseline and the new run.
Comparison compare_samples(std::span<const double> base, std::span<const double> current, const ChangeRule& rule);

double median(std::span<const double> values);  // NaN for none

}  // namespace tipc::stats
