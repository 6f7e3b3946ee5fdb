#include "stats/change.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "stats/mann_whitney.h"

namespace tipc::stats {
namespace {

// 0.0512 -> "+5.12%"
std::string percent(double fraction, bool sign = true) {
  return sign ? fmt::format("{:+.2f}%", fraction * 100) : fmt::format("{:.2f}%", fraction * 100);
}

double relative(double base, double current) {
  if (base == current) return 0;
  if (base == 0)
    return current > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  return (current - base) / std::abs(base);
}

Change direction_of(double relative_change, Better better) {
  const bool rose = relative_change > 0;
  return rose == (better == Better::kHigher) ? Change::kImproved : Change::kRegressed;
}

// The threshold guards shared by both paths; "" when the change crosses them.
std::string below_thresholds(const Comparison& c, const ChangeRule& rule) {
  const double size = std::abs(c.relative_change);
  if (size < rule.minimum_change) {
    return fmt::format("{} is under the {} floor", percent(c.relative_change), percent(rule.minimum_change, false));
  }
  if (size < rule.relative_threshold) {
    return fmt::format("{} is within the {} threshold", percent(c.relative_change),
                       percent(rule.relative_threshold, false));
  }
  if (rule.absolute_threshold && std::abs(c.current - c.base) < *rule.absolute_threshold) {
    return fmt::format("{:+g} is within the absolute threshold {:g}", c.current - c.base, *rule.absolute_threshold);
  }
  return "";
}

}  // namespace

const char* to_string(Change change) {
  switch (change) {
    case Change::kRegressed: return "REGRESSED";
    case Change::kImproved: return "IMPROVED";
    case Change::kUnchanged: return "UNCHANGED";
  }
  return "UNCHANGED";
}

double median(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> copy(values.begin(), values.end());
  const std::size_t middle = copy.size() / 2;
  std::nth_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(middle), copy.end());
  const double upper = copy[middle];
  if (copy.size() % 2 == 1) return upper;
  return (upper + *std::max_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(middle))) / 2;
}

Comparison compare_samples(std::span<const double> base, std::span<const double> current, const ChangeRule& rule) {
  Comparison c;
  c.base = median(base);
  c.current = median(current);
  if (base.empty() || current.empty()) {
    c.why = "a side has no value";
    return c;
  }
  c.relative_change = relative(c.base, c.current);
  if (std::string why = below_thresholds(c, rule); !why.empty()) {
    c.why = why;
    return c;
  }
  if (base.size() >= rule.min_samples && current.size() >= rule.min_samples) {
    const MannWhitney test = mann_whitney(current, base);
    c.p_value = test.p_value;
    c.rank_biserial = test.rank_biserial;
    if (test.p_value >= rule.alpha) {
      c.why = fmt::format("{}, but p = {:.3g} >= {:g}: within the noise", percent(c.relative_change), test.p_value,
                          rule.alpha);
      return c;
    }
    c.why = fmt::format("{}, p = {:.3g} < {:g}", percent(c.relative_change), test.p_value, rule.alpha);
  } else {
    c.why =
        fmt::format("{} crosses the {} threshold ({} and {} samples: too few for the test)", percent(c.relative_change),
                    percent(rule.relative_threshold, false), base.size(), current.size());
  }
  c.change = direction_of(c.relative_change, rule.better);
  return c;
}

}  // namespace tipc::stats
