#include "stats/mann_whitney.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace tipc::stats {
namespace {
namespace TIPC_TEST_FILE {

using Values = std::vector<double>;

TEST(MannWhitney, SeparatedSmallSamplesGetTheExactTwoSidedPValue) {
  // U = 0: 1 of C(6,3) = 20 arrangements is as extreme on each side.
  const MannWhitney three = mann_whitney(Values{1, 2, 3}, Values{4, 5, 6});
  EXPECT_TRUE(three.exact);
  EXPECT_EQ(three.u, 0);
  EXPECT_DOUBLE_EQ(three.p_value, 2.0 / 20);
  EXPECT_DOUBLE_EQ(three.rank_biserial, -1);
  // 2 of C(8,4) = 70.
  EXPECT_DOUBLE_EQ(mann_whitney(Values{5, 6, 7, 8}, Values{1, 2, 3, 4}).p_value, 2.0 / 70);
}

TEST(MannWhitney, ExactTailCountsEveryArrangementAtOrBelowU) {
  // U = 1 (only 4 > 3): arrangements with U <= 1 are 2 of 20, doubled for two sides.
  const MannWhitney test = mann_whitney(Values{1, 2, 4}, Values{3, 5, 6});
  EXPECT_EQ(test.u, 1);
  EXPECT_DOUBLE_EQ(test.p_value, 4.0 / 20);
  // Ten against ten, fully separated: 2 / C(20,10).
  Values low, high;
  for (int i = 0; i < 10; ++i) {
    low.push_back(80 + i * 0.3);
    high.push_back(100 + i * 0.3);
  }
  EXPECT_NEAR(mann_whitney(high, low).p_value, 2.0 / 184756, 1e-15);
}

TEST(MannWhitney, TiesUseTheNormalApproximationWithTieAndContinuityCorrection) {
  // By hand: U = 2.5 (the 2s and the 3s tie), mean 8, variance 16/12 * (9 - 36/56).
  const MannWhitney test = mann_whitney(Values{1, 2, 2, 3}, Values{2, 3, 4, 5});
  EXPECT_FALSE(test.exact);
  EXPECT_DOUBLE_EQ(test.u, 2.5);
  EXPECT_NEAR(test.p_value, 0.1366582477, 1e-9);
  EXPECT_NEAR(mann_whitney(Values{10, 11, 12, 12, 13, 14}, Values{12, 13, 15, 16, 17, 18}).p_value, 0.0357196496, 1e-9);
}

TEST(MannWhitney, TheTestIsSymmetricInItsSamples) {
  const Values a{3.1, 4.7, 2.2, 9.0, 5.5}, b{6.3, 7.1, 8.8, 5.9, 10.2, 4.0};
  const MannWhitney ab = mann_whitney(a, b), ba = mann_whitney(b, a);
  EXPECT_DOUBLE_EQ(ab.p_value, ba.p_value);
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 30);
  EXPECT_DOUBLE_EQ(ab.rank_biserial, -ba.rank_biserial);
}

TEST(MannWhitney, NoEvidenceFromEmptyOrAllTiedSamples) {
  EXPECT_EQ(mann_whitney(Values{}, Values{1, 2}).p_value, 1);
  const MannWhitney tied = mann_whitney(Values{7, 7, 7, 7}, Values{7, 7, 7, 7, 7});
  EXPECT_EQ(tied.p_value, 1);
  EXPECT_EQ(tied.rank_biserial, 0);
}

// Calibration: between samples of one distribution the test rejects at 5 % about 5 % of the
// time; a shift of one standard deviation with 20 samples a side is found almost always.
TEST(MannWhitney, RejectsAtItsLevelUnderTheNullAndFindsARealShift) {
  std::mt19937 generator(20261127);
  std::normal_distribution<double> noise(100, 3);
  const auto draw = [&](double shift) {
    Values sample(20);
    for (double& value : sample) value = noise(generator) + shift;
    return sample;
  };
  int false_alarms = 0, found = 0;
  const int pairs = 400;
  for (int i = 0; i < pairs; ++i) {
    if (mann_whitney(draw(0), draw(0)).p_value < 0.05) ++false_alarms;
    if (mann_whitney(draw(3), draw(0)).p_value < 0.05) ++found;
  }
  EXPECT_GT(false_alarms, pairs * 0.02);
  EXPECT_LT(false_alarms, pairs * 0.08);
  EXPECT_GT(found, pairs * 0.80);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::stats
