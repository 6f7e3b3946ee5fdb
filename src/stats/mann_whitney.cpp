#include "stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace tipc::stats {
namespace {

struct Ranked {
  double rank_sum_first = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of t tied values
};

// Ranks of the pooled samples (1-based, tied values share their mean rank).
Ranked rank(std::span<const double> first, std::span<const double> second) {
  std::vector<std::pair<double, bool>> pooled;  // value, from the first sample
  pooled.reserve(first.size() + second.size());
  for (double value : first) pooled.emplace_back(value, true);
  for (double value : second) pooled.emplace_back(value, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Ranked ranked;
  for (std::size_t start = 0; start < pooled.size();) {
    std::size_t end = start;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) ++end;
    const double tied = static_cast<double>(end - start);
    const double mean_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (std::size_t i = start; i < end; ++i) {
      if (pooled[i].second) ranked.rank_sum_first += mean_rank;
    }
    ranked.tie_term += tied * tied * tied - tied;
    start = end;
  }
  return ranked;
}

// P(U <= u) under the null hypothesis, counted: the number of arrangements of n1 + n2
// distinct values in which the first sample has U = k is the coefficient of q^k in the
// Gaussian binomial (n1 + n2 choose n1)_q, built one item at a time.
double exact_lower_tail(std::size_t n1, std::size_t n2, double u) {
  // counts[m][k]: arrangements of m first-sample items among the items seen so far.
  const std::size_t max_u = n1 * n2;
  std::vector<std::vector<double>> counts(n1 + 1, std::vector<double>(max_u + 1, 0));
  counts[0][0] = 1;
  for (std::size_t seen = 1; seen <= n1 + n2; ++seen) {
    // A new largest item: from the first sample it lies above every second-sample item so
    // far (seen - m of them, m counted after adding it).
    for (std::size_t m = std::min(seen, n1); m >= 1; --m) {
      const std::size_t above = seen - m;
      if (above > n2) continue;
      for (std::size_t k = max_u; k + 1 > above; --k) counts[m][k] += counts[m - 1][k - above];
    }
  }
  double below = 0, total = 0;
  for (std::size_t k = 0; k <= max_u; ++k) {
    total += counts[n1][k];
    if (static_cast<double>(k) <= u + 1e-9) below += counts[n1][k];
  }
  return below / total;
}

double normal_p_value(std::size_t n1, std::size_t n2, double u, double tie_term) {
  const double a = static_cast<double>(n1), b = static_cast<double>(n2), n = a + b;
  const double mean = a * b / 2;
  const double variance = a * b / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) return 1;  // every value tied: no evidence either way
  const double distance = std::max(std::abs(u - mean) - 0.5, 0.0);
  return std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
}

}  // namespace

MannWhitney mann_whitney(std::span<const double> first, std::span<const double> second) {
  MannWhitney result;
  const std::size_t n1 = first.size(), n2 = second.size();
  if (n1 == 0 || n2 == 0) return result;
  const Ranked ranked = rank(first, second);
  const double a = static_cast<double>(n1), b = static_cast<double>(n2);
  result.u = ranked.rank_sum_first - a * (a + 1) / 2;
  result.rank_biserial = 2 * result.u / (a * b) - 1;
  if (ranked.tie_term == 0 && n1 * n2 <= kExactLimit) {
    const double smaller_u = std::min(result.u, a * b - result.u);
    result.p_value = std::min(1.0, 2 * exact_lower_tail(n1, n2, smaller_u));
    result.exact = true;
  } else {
    result.p_value = normal_p_value(n1, n2, result.u, ranked.tie_term);
  }
  return result;
}

}  // namespace tipc::stats
