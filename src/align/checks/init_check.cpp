#include "align/checks/init_check.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tipc::align {
namespace {

DistributionStats stats_of(const std::vector<double>& sorted) {
  DistributionStats s;
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  double sum = 0;
  for (double v : sorted) sum += v;
  s.mean = sum / static_cast<double>(s.count);
  double squares = 0;
  for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(squares / static_cast<double>(s.count));
  return s;
}

// Two-sample KS statistic over sorted samples: walk both empirical CDFs together.
double ks_statistic(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t i = 0, j = 0;
  double worst = 0;
  const double n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    worst = std::max(worst, std::abs(static_cast<double>(i) / n - static_cast<double>(j) / m));
  }
  return worst;
}

std::vector<std::size_t> histogram(const std::vector<double>& values, const std::vector<double>& edges) {
  const std::size_t bins = edges.size() - 1;
  std::vector<std::size_t> counts(bins, 0);
  const double low = edges.front(), width = (edges.back() - edges.front()) / static_cast<double>(bins);
  for (double v : values) {
    const auto bin = width > 0 ? static_cast<std::size_t>((v - low) / width) : 0;
    counts[std::min(bin, bins - 1)] += 1;
  }
  return counts;
}

std::vector<double> probabilities(const std::vector<std::size_t>& counts, std::size_t total) {
  std::vector<double> p;
  for (std::size_t c : counts) p.push_back(static_cast<double>(c) / static_cast<double>(total));
  return p;
}

Result<std::vector<double>> sorted_finite_values(const Array& array, const char* which) {
  if (array.size() == 0) return fail(Error::plain(fmt::format("the {} tensor is empty", which)));
  std::vector<double> values = array.to_doubles();
  for (double v : values) {
    if (!std::isfinite(v)) {
      return fail(Error::plain(fmt::format("the {} tensor holds a non-finite value ({})", which, v)));
    }
  }
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

Result<InitComparison> compare_initialisation(const Array& first, const Array& second,
                                              const InitCheckOptions& options) {
  auto a = TRY(sorted_finite_values(first, "first"));
  auto b = TRY(sorted_finite_values(second, "second"));
  InitComparison c;
  c.first = stats_of(a);
  c.second = stats_of(b);
  c.ks_statistic = ks_statistic(a, b);
  const double n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  c.ks_limit = options.max_ks > 0 ? options.max_ks : 1.628 * std::sqrt((n + m) / (n * m));

  const std::size_t bins = std::max<std::size_t>(1, options.bins);
  const double low = std::min(c.first.min, c.second.min), high = std::max(c.first.max, c.second.max);
  for (std::size_t k = 0; k <= bins; ++k) {
    c.bin_edges.push_back(low + (high - low) * static_cast<double>(k) / static_cast<double>(bins));
  }
  c.first_counts = histogram(a, c.bin_edges);
  c.second_counts = histogram(b, c.bin_edges);
  c.first_hist = probabilities(c.first_counts, a.size());
  c.second_hist = probabilities(c.second_counts, b.size());
  for (std::size_t k = 0; k < bins; ++k) c.histogram_overlap += std::min(c.first_hist[k], c.second_hist[k]);

  c.passed = c.ks_statistic <= c.ks_limit;
  if (!c.passed) {
    c.reason = fmt::format(
        "KS statistic {:.6g} > {:.6g}: the distributions differ (mean {:.6g} vs {:.6g}, "
        "std {:.6g} vs {:.6g})",
        c.ks_statistic, c.ks_limit, c.first.mean, c.second.mean, c.first.std, c.second.std);
  }
  return c;
}

}  // namespace tipc::align
