// The element-wise pass of a PaDiff comparison: the count outside the tolerance, the largest
// difference and its index, the same whatever order and float type each side is stored in
// (native float32 and float64 are read straight, anything else through value_at; a 2-D pair
// with a Fortran side goes tile by tile, any other Fortran side through its C-order offsets).
#include "align/checks/padiff_elements.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "support/float_bytes.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const Dtype kFloat16{DtypeKind::kFloat, 2, ByteOrder::kLittle};
const Dtype kFloat32{DtypeKind::kFloat, 4, ByteOrder::kLittle};
const Dtype kFloat64{DtypeKind::kFloat, 8, ByteOrder::kLittle};
const Dtype kBigFloat32{DtypeKind::kFloat, 4, ByteOrder::kBig};

// `values`, given in C order, as an array of `dtype` under `shape`, its bytes laid out in
// C or Fortran order (and in big-endian order for a big-endian dtype).
Array laid_out(const std::vector<double>& values, std::vector<std::size_t> shape, bool fortran = false,
               Dtype dtype = kFloat64) {
  Array array{dtype, std::move(shape), fortran, {}};
  std::vector<double> memory(values.size());
  for (std::size_t c = 0; c < values.size(); ++c) memory[array.storage_index(c)] = values[c];
  std::vector<std::byte> bytes = test::float_bytes(dtype.item_size, memory);
  if (dtype.order == ByteOrder::kBig) {
    for (auto item = bytes.begin(); item != bytes.end(); item += static_cast<std::ptrdiff_t>(dtype.item_size))
      std::reverse(item, item + static_cast<std::ptrdiff_t>(dtype.item_size));
  }
  array.data = SharedBytes::own(std::move(bytes));
  return array;
}

std::vector<double> counting(std::size_t n) {
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(i % 50) * 0.25;  // exact in float16 too
  return values;
}

const Tolerance kExact{CompareMode::kStrict, 0, 0};

TEST(PadiffElements, TheLargestDifferenceIsLocatedInTheShape) {
  const auto diff = element_diff(laid_out({0, 0, 0, 0, 0, 0}, {2, 3}), laid_out({0, 0.5, 0, 0, 0, -2}, {2, 3}),
                                 {CompareMode::kMean, 0, 1e-7});
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->max_abs, 2.0);
  EXPECT_EQ(diff->argmax, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(diff->a_at_max, 0.0);
  EXPECT_EQ(diff->b_at_max, -2.0);
  EXPECT_EQ(diff->outside, 2u);
  EXPECT_EQ(diff->total, 6u);
}

TEST(PadiffElements, TheToleranceTakesBAsTheReference) {
  const Array a = laid_out({1.5, 1.0}, {2});
  const Array b = laid_out({1.0, 2.0}, {2});
  EXPECT_EQ(element_diff(a, b, {CompareMode::kStrict, 0, 0.5})->outside, 0u);  // 0.5 <= 0.5 * |1|, 1 <= 0.5 * |2|
  EXPECT_EQ(element_diff(b, a, {CompareMode::kStrict, 0, 0.5})->outside, 1u);  // 1 > 0.5 * |1|
  // 0.5 <= 0.25 + 0.25 * |1| (the bound is inclusive), 1 > 0.25 + 0.25 * |2|
  EXPECT_EQ(element_diff(a, b, {CompareMode::kStrict, 0.25, 0.25})->outside, 1u);
}

TEST(PadiffElements, ShapesMustBeEqualUnlessASideIs0d) {
  EXPECT_FALSE(element_diff(laid_out({1, 1}, {2}), laid_out({1, 1, 1}, {3}), kExact));
  EXPECT_FALSE(element_diff(laid_out({1, 1}, {2, 1}), laid_out({1, 1}, {1, 2}), kExact));
  const auto broadcast = element_diff(laid_out({2}, {}), laid_out({2, 3, 2, 2}, {2, 2}, true), kExact);
  ASSERT_TRUE(broadcast);
  EXPECT_EQ(broadcast->total, 4u);
  EXPECT_EQ(broadcast->outside, 1u);
  EXPECT_EQ(broadcast->argmax, (std::vector<std::size_t>{0, 1}));  // 3 is B's [0, 1], stored at 2 in Fortran order
  EXPECT_EQ(broadcast->b_at_max, 3.0);
  const auto empty = element_diff(laid_out({}, {0, 3}), laid_out({}, {0, 3}), kExact);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->total, 0u);
  EXPECT_EQ(empty->max_abs, 0.0);
}

TEST(PadiffElements, NaNsInTheSamePlacesAreEqualAndOtherSpecialValuesDifferInfinitely) {
  const auto same = element_diff(laid_out({kNaN, kInf, -kInf}, {3}), laid_out({kNaN, kInf, -kInf}, {3}), kExact);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->outside, 0u);
  EXPECT_EQ(same->max_abs, 0.0);
  const auto nan_off = element_diff(laid_out({1, kNaN}, {2}), laid_out({1, 2}, {2}), {CompareMode::kStrict, 1e9, 1e9});
  EXPECT_EQ(nan_off->outside, 1u);
  EXPECT_EQ(nan_off->max_abs, kInf);
  EXPECT_EQ(nan_off->argmax, std::vector<std::size_t>{1});
  const auto sign_off = element_diff(laid_out({kInf}, {1}), laid_out({-kInf}, {1}), kExact);
  EXPECT_EQ(sign_off->outside, 1u);
  EXPECT_EQ(sign_off->max_abs, kInf);
}

// The same values in every float type, byte order and storage order give the same diff: one
// element off is found at its C-order index, in 2-D (tiles) and 3-D (Fortran offsets).
TEST(PadiffElements, EveryLayoutAndFloatTypeIsReadInCOrder) {
  for (const auto& shape : {std::vector<std::size_t>{70, 130}, std::vector<std::size_t>{5, 7, 3}}) {
    std::size_t n = 1;
    for (std::size_t axis : shape) n *= axis;
    const std::vector<double> values = counting(n);
    std::vector<double> off = values;
    off[n / 3] += 1;
    for (const Dtype& dtype : {kFloat16, kFloat32, kFloat64, kBigFloat32}) {
      for (const bool a_fortran : {false, true}) {
        for (const bool b_fortran : {false, true}) {
          SCOPED_TRACE(dtype.descr() + " " + shape_text(shape) + " " + std::to_string(a_fortran) +
                       std::to_string(b_fortran));
          const Array a = laid_out(values, shape, a_fortran, dtype);
          EXPECT_EQ(element_diff(a, laid_out(values, shape, b_fortran, dtype), kExact)->max_abs, 0.0);
          const auto diff = element_diff(a, laid_out(off, shape, b_fortran, dtype), kExact);
          ASSERT_TRUE(diff);
          EXPECT_EQ(diff->argmax, unravel_index(n / 3, shape));
          EXPECT_EQ(diff->outside, 1u);
          EXPECT_EQ(diff->max_abs, 1.0);
          EXPECT_EQ(diff->b_at_max, off[n / 3]);
        }
      }
    }
  }
}

// A pair with a Fortran side is walked tile by tile (64 x 64), not in C order: of two equal
// largest differences, at [0, 96] (in the second tile) and [1, 0] (in the first), the first
// in C order is still the one reported, as it is when both are in C order.
TEST(PadiffElements, EqualLargestDifferencesReportTheFirstInCOrderInAnyLayout) {
  const std::size_t rows = 130, cols = 97;
  const std::vector<double> values = counting(rows * cols);
  std::vector<double> off = values;
  off[96] += 1;
  off[cols] += 1;
  for (const bool a_fortran : {false, true}) {
    for (const bool b_fortran : {false, true}) {
      const auto diff = element_diff(laid_out(values, {rows, cols}, a_fortran, kFloat32),
                                     laid_out(off, {rows, cols}, b_fortran, kFloat32), kExact);
      ASSERT_TRUE(diff.has_value());
      EXPECT_EQ(diff->argmax, (std::vector<std::size_t>{0, 96})) << a_fortran << b_fortran;
      EXPECT_EQ(diff->max_abs, 1);
      EXPECT_EQ(diff->outside, 2u);
    }
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
