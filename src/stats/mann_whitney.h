#pragma once
// The Mann-Whitney U test (Wilcoxon rank-sum): do two independent samples come from one
// distribution, or does one tend to lie above the other? Rank-based, so it assumes no shape
// (per-step throughput is skewed, with stalls), and robust to outliers. LLVM's LNT uses it
// for the same purpose: telling a benchmark's noise from a real change.
#include <cstddef>
#include <span>

namespace tipc::stats {

struct MannWhitney {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counted half
  double p_value = 1;  // two-sided
  bool exact = false;  // from the exact distribution of U (small samples without ties)
  // The rank-biserial correlation, 2U/(n1 n2) - 1, in [-1, 1]: +1 when every value of the
  // first sample is above every value of the second, 0 when neither tends to be larger
  // (Cliff's delta of the first sample over the second).
  double rank_biserial = 0;
};

// Exact p-value when both samples are small enough for the exact distribution to be counted
// (n1 * n2 <= kExactLimit) and no value is tied; otherwise the normal approximation with the
// tie correction and a continuity correction. Empty samples give U = 0, p = 1.
MannWhitney mann_whitney(std::span<const double> first, std::span<const double> second);

inline constexpr std::size_t kExactLimit = 400;

}  // namespace tipc::stats
