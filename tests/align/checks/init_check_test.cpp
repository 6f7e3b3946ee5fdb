#include "align/checks/init_check.h"

#include <cstring>
#include <random>

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

Array float32_array(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return Array{*dtype_from_descr("<f4"), {values.size()}, false, SharedBytes::own(std::move(bytes))};
}

template <typename Distribution>
Array sample(Distribution distribution, unsigned seed, std::size_t n = 20000) {
  std::mt19937 engine(seed);
  std::vector<float> values(n);
  for (auto& v : values) v = static_cast<float>(distribution(engine));
  return float32_array(values);
}

TEST(InitCheck, TwoDrawsFromTheSameInitialiserPass) {
  const auto c = compare_initialisation(sample(std::normal_distribution<double>(0, 0.02), 1),
                                        sample(std::normal_distribution<double>(0, 0.02), 2));
  ASSERT_TRUE(c) << c.error().str();
  EXPECT_TRUE(c->passed) << c->reason;
  EXPECT_NEAR(c->first.std, 0.02, 0.001);
  EXPECT_GT(c->histogram_overlap, 0.9);
  EXPECT_EQ(c->bin_edges.size(), 51u);
  EXPECT_EQ(c->first_hist.size(), 50u);
}

TEST(InitCheck, ADifferentInitialiserFailsEvenWithTheSameStd) {
  // Uniform(-a, a) with a = 0.02 * sqrt(3) has the same std as Normal(0, 0.02).
  const double a = 0.02 * std::sqrt(3.0);
  const auto c = compare_initialisation(sample(std::normal_distribution<double>(0, 0.02), 1),
                                        sample(std::uniform_real_distribution<double>(-a, a), 2));
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->first.std, c->second.std, 0.001);
  EXPECT_FALSE(c->passed);
  EXPECT_NE(c->reason.find("KS statistic"), std::string::npos);
}

TEST(InitCheck, AWrongScaleFails) {
  const auto c = compare_initialisation(sample(std::normal_distribution<double>(0, 0.02), 1),
                                        sample(std::normal_distribution<double>(0, 0.01), 2));
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->passed);
  EXPECT_LT(c->histogram_overlap, 0.8);
}

TEST(InitCheck, IdenticalTensorsHaveZeroDistance) {
  const Array w = sample(std::normal_distribution<double>(0, 1), 3, 1000);
  const auto c = compare_initialisation(w, w);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ks_statistic, 0);
  EXPECT_NEAR(c->histogram_overlap, 1.0, 1e-12);
  EXPECT_TRUE(c->passed);
}

TEST(InitCheck, AFixedThresholdReplacesTheCriticalValue) {
  const auto c = compare_initialisation(sample(std::normal_distribution<double>(0, 0.02), 1),
                                        sample(std::normal_distribution<double>(0, 0.02), 2), {50, 1e-9});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ks_limit, 1e-9);
  EXPECT_FALSE(c->passed);
}

TEST(InitCheck, EmptyOrNonFiniteTensorsAreErrors) {
  EXPECT_FALSE(compare_initialisation(float32_array({}), float32_array({1.0f})));
  const auto nan = compare_initialisation(float32_array({1.0f, std::nanf("")}), float32_array({1.0f}));
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().str().find("the first tensor holds a non-finite value"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
