// Exact means: the same values give the same mean in any order, cancellation loses nothing,
// and every dtype, byte order and special value is read as numpy holds it.
#include "align/numeric/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
Array array_of(const std::vector<T>& values, DtypeKind kind = DtypeKind::kFloat, ByteOrder order = ByteOrder::kLittle) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());  // an empty vector's data() may be null
  return Array{Dtype{kind, sizeof(T), order}, {values.size()}, false, SharedBytes::own(std::move(bytes))};
}

TEST(ExactMean, CancellationLosesNothing) {
  // float32 in memory order gives 0.5 here (1e8 + 1 == 1e8); the exact sum is 4.
  EXPECT_EQ(exact_mean(array_of<float>({1e8f, 1, -1e8f, 1, 1, 1}), false), 4.0 / 6.0);
  EXPECT_EQ(exact_mean(array_of<double>({1e300, 1, -1e300}), false), 1.0 / 3.0);
  EXPECT_EQ(exact_mean(array_of<double>({std::ldexp(1.0, -1074), 1.0, -1.0}), false), std::ldexp(1.0, -1074) / 3);
  EXPECT_EQ(exact_mean(array_of<double>({-1.5, 0.25}), false), -0.625);
  EXPECT_EQ(exact_mean(array_of<double>({-1.5, 0.25}), true), 0.875);
}

// Values over many binades and both signs, and their negatives, in a random order: the sum
// is exactly what is added on top, whatever the order and the number of threads (above 2^20
// elements the sum is split across threads).
TEST(ExactMean, AnyOrderOfTheSameValuesGivesTheSameMean) {
  std::mt19937 random(29);
  for (const std::size_t half : {std::size_t{5}, std::size_t{3 * 8192 + 7}, std::size_t{1} << 20}) {
    std::vector<float> values;
    for (std::size_t i = 0; i < half; ++i) {
      const float v = std::ldexp(static_cast<float>(random() % 16777216), static_cast<int>(random() % 80) - 60);
      values.push_back(v);
      values.push_back(-v);
    }
    values.push_back(3);
    const double expected = 3.0 / static_cast<double>(values.size());
    EXPECT_EQ(exact_mean(array_of(values), false), expected) << half;
    std::shuffle(values.begin(), values.end(), random);
    EXPECT_EQ(exact_mean(array_of(values), false), expected) << half;
    std::vector<double> widened(values.begin(), values.end());
    EXPECT_EQ(exact_mean(array_of(widened), false), expected) << half;
  }
}

TEST(ExactMean, Float16IsReadExactly) {
  std::vector<_Float16> values = {static_cast<_Float16>(65504.0f), static_cast<_Float16>(-65504.0f),
                                  static_cast<_Float16>(std::ldexp(1.0f, -14)),
                                  static_cast<_Float16>(std::ldexp(1.0f, -24))};  // max, smallest normal and subnormal
  EXPECT_EQ(exact_mean(array_of(values), false), (std::ldexp(1.0, -14) + std::ldexp(1.0, -24)) / 4);
  EXPECT_EQ(exact_mean(array_of(values), true), (2 * 65504.0 + std::ldexp(1.0, -14) + std::ldexp(1.0, -24)) / 4);
}

TEST(ExactMean, BigEndianAndComplexRealParts) {
  std::vector<std::uint32_t> swapped;
  for (const float v : {1.5f, -0.25f}) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    swapped.push_back(__builtin_bswap32(bits));
  }
  EXPECT_EQ(exact_mean(array_of(swapped, DtypeKind::kFloat, ByteOrder::kBig), false), 0.625);
  // complex64 [1+100j, 2-100j]: the real parts, as value_at reads a complex element.
  Array complex64 = array_of<float>({1, 100, 2, -100}, DtypeKind::kComplex);
  complex64.dtype.item_size = 8;
  complex64.shape = {2};
  EXPECT_EQ(exact_mean(complex64, false), 1.5);
}

TEST(ExactMean, SpecialValues) {
  EXPECT_TRUE(std::isnan(exact_mean(array_of<float>({1, std::nanf("")}), false)));
  EXPECT_TRUE(std::isnan(exact_mean(array_of<double>({kInf, -kInf}), false)));
  EXPECT_EQ(exact_mean(array_of<double>({kInf, -kInf}), true), kInf);
  EXPECT_EQ(exact_mean(array_of<float>({1, -std::numeric_limits<float>::infinity()}), false), -kInf);
  EXPECT_TRUE(std::isnan(exact_mean(array_of<float>({}), false)));
  EXPECT_TRUE(std::isnan(exact_mean(array_of<double>({kNaN}), true)));
}

TEST(ExactMean, IntegersSumExactlyIn128Bits) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(exact_mean(array_of<std::int64_t>({kMax, kMax, -kMax, -kMax, 3}, DtypeKind::kInt), false), 0.6);
  EXPECT_EQ(exact_mean(array_of<std::int64_t>({-4, 2}, DtypeKind::kInt), true), 3.0);
  EXPECT_EQ(exact_mean(array_of<std::uint64_t>({~std::uint64_t{0}, 1}, DtypeKind::kUInt), false), std::ldexp(1.0, 63));
  EXPECT_EQ(exact_mean(array_of<std::uint8_t>({1, 0, 1, 1}, DtypeKind::kBool), false), 0.75);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
