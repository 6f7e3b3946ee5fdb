#pragma once
// Weight-initialisation alignment (the reproduction guide's "init alignment" step):
// two frameworks cannot share random numbers, so instead of comparing values this
// compares the distributions of two weight tensors — moments, range, a histogram
// overlap and the two-sample Kolmogorov-Smirnov statistic. The histograms are kept
// for the HTML report.
#include <cstddef>
#include <string>
#include <vector>

#include "align/io/array.h"
#include "core/error.h"

namespace tipc::align {

struct DistributionStats {
  std::size_t count = 0;
  double mean = 0, std = 0, min = 0, max = 0;
};

struct InitCheckOptions {
  std::size_t bins = 50;
  // Largest accepted KS statistic; 0 uses the critical value at alpha = 0.01
  // (1.628 * sqrt((n + m) / (n * m))), which adapts to the tensor sizes.
  double max_ks = 0;
};

struct InitComparison {
  DistributionStats first, second;
  double ks_statistic = 0;                               // sup |F1(x) - F2(x)| over the empirical CDFs
  double ks_limit = 0;                                   // the threshold it was held against
  double histogram_overlap = 0;                          // sum over bins of min(p, q), 1 = identical histograms
  std::vector<double> bin_edges;                         // bins + 1 edges over the joint range
  std::vector<double> first_hist, second_hist;           // bin probabilities
  std::vector<std::size_t> first_counts, second_counts;  // the same bins as element counts
  bool passed = false;
  std::string reason;  // why it failed ("" when it passed)
};

Result<InitComparison> compare_initialisation(const Array& first, const Array& second,
                                              const InitCheckOptions& options = {});

}  // namespace tipc::align
