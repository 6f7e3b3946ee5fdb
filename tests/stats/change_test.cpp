#include "stats/change.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace tipc::stats {
namespace {
namespace TIPC_TEST_FILE {

using Values = std::vector<double>;

Values scaled(const Values& values, double factor) {
  Values out;
  for (double value : values) out.push_back(value * factor);
  return out;
}

const Values kIps{101.2, 99.1, 100.4, 98.7, 102.3, 100.9, 99.6, 101.8, 98.2, 100.1};

TEST(Change, TheSameDistributionIsUnchanged) {
  const Values shuffled{100.9, 98.2, 101.8, 99.1, 100.1, 102.3, 98.7, 101.2, 99.6, 100.4};
  const Comparison c = compare_samples(kIps, shuffled, {});
  EXPECT_EQ(c.change, Change::kUnchanged);
  EXPECT_EQ(c.relative_change, 0);
  EXPECT_EQ(c.why, "+0.00% is under the 1.00% floor");
}

TEST(Change, ATwentyPercentThroughputDropIsARegressionWithItsPValue) {
  const Comparison c = compare_samples(kIps, scaled(kIps, 0.8), {});
  EXPECT_EQ(c.change, Change::kRegressed);
  EXPECT_NEAR(c.relative_change, -0.2, 1e-12);
  ASSERT_TRUE(c.p_value);
  EXPECT_NEAR(*c.p_value, 2.0 / 184756, 1e-15);  // fully separated, ten a side
  EXPECT_EQ(*c.rank_biserial, -1);
  EXPECT_DOUBLE_EQ(c.base, 100.25);
  EXPECT_EQ(compare_samples(kIps, scaled(kIps, 1.2), {}).change, Change::kImproved);
}

TEST(Change, AMedianGapInsideTheNoiseIsUnchanged) {
  // +6 % between medians, but the samples overlap: the test does not reject.
  const Comparison c = compare_samples(Values{80, 90, 100, 110, 120}, Values{85, 95, 106, 115, 125}, {});
  EXPECT_EQ(c.change, Change::kUnchanged);
  ASSERT_TRUE(c.p_value);
  EXPECT_GT(*c.p_value, 0.05);
  EXPECT_NE(c.why.find("within the noise"), std::string::npos) << c.why;
}

TEST(Change, FewSamplesAreJudgedByTheThresholdAlone) {
  ChangeRule latency;
  latency.better = Better::kLower;
  const Comparison slower = compare_samples(Values{10, 10.2}, Values{11.1}, latency);
  EXPECT_EQ(slower.change, Change::kRegressed);
  EXPECT_FALSE(slower.p_value);
  EXPECT_EQ(slower.why, "+9.90% crosses the 5.00% threshold (2 and 1 samples: too few for the test)");
  EXPECT_EQ(compare_samples(Values{10.1}, Values{10.4}, latency).change, Change::kUnchanged);  // +3 %
  EXPECT_EQ(compare_samples(Values{10.1}, Values{9}, latency).change, Change::kImproved);
}

TEST(Change, AnAbsoluteThresholdGuardsSmallMetrics) {
  ChangeRule accuracy;
  accuracy.absolute_threshold = 0.05;
  EXPECT_EQ(compare_samples(Values{0.50}, Values{0.47}, accuracy).change, Change::kUnchanged);  // -6 %, -0.03
  EXPECT_EQ(compare_samples(Values{0.50}, Values{0.40}, accuracy).change, Change::kRegressed);
}

TEST(Change, TheFloorWinsOverAZeroThreshold) {
  ChangeRule strict;
  strict.relative_threshold = 0;
  EXPECT_EQ(compare_samples(Values{100}, Values{99.5}, strict).change, Change::kUnchanged);
  EXPECT_EQ(compare_samples(Values{100}, Values{98}, strict).change, Change::kRegressed);
}

TEST(Change, ZeroBaselinesAndMissingSides) {
  const Comparison from_zero = compare_samples(Values{0}, Values{1}, {});
  EXPECT_TRUE(std::isinf(from_zero.relative_change));
  EXPECT_EQ(from_zero.change, Change::kImproved);
  const Comparison missing = compare_samples(Values{}, Values{1}, {});
  EXPECT_EQ(missing.change, Change::kUnchanged);
  EXPECT_EQ(missing.why, "a side has no value");
  EXPECT_TRUE(std::isnan(median(Values{})));
  EXPECT_EQ(median(Values{3, 1, 2, 10}), 2.5);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::stats
