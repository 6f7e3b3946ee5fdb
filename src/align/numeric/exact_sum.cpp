#include "align/numeric/exact_sum.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace tipc::align {
namespace {

// Bin i holds multiples of 2^(i - 1075): float64's exponent field i (1 for subnormals)
// with its significand as an integer. 2048 exponents, 27 more for a significand's upper
// half, and room above for the carries of any sum of up to 2^64 values.
constexpr std::size_t kBins = 2048 + 128;
constexpr int kUnitExponent = -1075;
constexpr int kLowBits = 27;  // a float64 significand goes in as 27 low and 26 high bits
// Adds a worker makes before it propagates its carries: a bin then stays far below 2^62.
constexpr std::size_t kElementsPerFlush = std::size_t{1} << 30;
// Independent bin sets taken in turn, so that consecutive values with one exponent do not
// wait for each other's add to the same bin.
constexpr std::size_t kLanes = 4;
// Below this many elements a single thread is faster than starting more.
constexpr std::size_t kElementsPerThread = std::size_t{1} << 20;
constexpr std::size_t kMaxSumThreads = 8;

using Bins = std::array<std::int64_t, kBins>;

// Carries each bin into the next, so every bin holds 0 or 1 and the last the rest (0 or
// -1): the two's-complement digits of the sum, one set of digits for one sum.
void propagate_carries(Bins& bins) {
  for (std::size_t i = 0; i + 1 < kBins; ++i) {
    const std::int64_t carry = bins[i] >> 1;  // floor: the remainder is 0 or 1
    bins[i] -= carry * 2;
    bins[i + 1] += carry;
  }
}

class LongAccumulator {
 public:
  // Adds -+significand * 2^(bin + kUnitExponent); a significand above 27 bits is split.
  template <bool kSplit>
  void add(std::size_t lane, std::size_t bin, std::uint64_t significand, bool negative) {
    const auto signed_part = [negative](std::uint64_t part) {
      const auto value = static_cast<std::int64_t>(part);
      return negative ? -value : value;
    };
    if constexpr (kSplit) {
      lanes_[lane][bin] += signed_part(significand & ((std::uint64_t{1} << kLowBits) - 1));
      lanes_[lane][bin + kLowBits] += signed_part(significand >> kLowBits);
    } else {
      lanes_[lane][bin] += signed_part(significand);
    }
  }

  void add_special(bool nan, bool negative) {
    nan_ = nan_ || nan;
    if (!nan && negative) negative_infinity_ = true;
    if (!nan && !negative) positive_infinity_ = true;
  }

  // Folds the lanes into the total and propagates its carries.
  void flush() {
    for (Bins& lane : lanes_) {
      for (std::size_t i = 0; i < kBins; ++i) total_[i] += lane[i];
      lane.fill(0);
    }
    propagate_carries(total_);
  }

  // Adds another flushed accumulator's total to this flushed one.
  void merge(const LongAccumulator& other) {
    for (std::size_t i = 0; i < kBins; ++i) total_[i] += other.total_[i];
    propagate_carries(total_);
    nan_ = nan_ || other.nan_;
    positive_infinity_ = positive_infinity_ || other.positive_infinity_;
    negative_infinity_ = negative_infinity_ || other.negative_infinity_;
  }

  double mean(std::size_t count) const;

 private:
  std::array<Bins, kLanes> lanes_{};
  Bins total_{};
  bool nan_ = false, positive_infinity_ = false, negative_infinity_ = false;
};

// The flushed total over `count`, rounded once: the top 64 digits of |sum| are exact in a
// long double (x86's 80-bit; elsewhere at least double), the rest only decide the last bit.
double LongAccumulator::mean(std::size_t count) const {
  if (nan_ || (positive_infinity_ && negative_infinity_)) return std::numeric_limits<double>::quiet_NaN();
  if (positive_infinity_ || negative_infinity_) return (positive_infinity_ ? 1 : -1) * HUGE_VAL;
  Bins digits = total_;
  const bool negative = digits.back() < 0;
  if (negative) {
    for (std::int64_t& digit : digits) digit = -digit;
    propagate_carries(digits);
  }
  std::size_t high = kBins;
  while (high > 0 && digits[high - 1] == 0) --high;
  if (high == 0) return 0.0;
  const std::size_t top = high - 1;
  std::uint64_t leading = 0;
  for (std::size_t k = 0; k < 64; ++k)
    leading = (leading << 1) | (k <= top ? static_cast<std::uint64_t>(digits[top - k]) : 0);
  const long double magnitude =
      std::ldexp(static_cast<long double>(leading), static_cast<int>(top) - 63 + kUnitExponent);
  const long double mean = magnitude / static_cast<long double>(count);
  return static_cast<double>(negative ? -mean : mean);
}

template <typename Word>
Word byte_swapped(Word word) {
  if constexpr (sizeof(Word) == 2) return __builtin_bswap16(word);
  if constexpr (sizeof(Word) == 4) return __builtin_bswap32(word);
  if constexpr (sizeof(Word) == 8) return __builtin_bswap64(word);
}

// An IEEE binary format: Word's bits hold a sign, an exponent field and kFractionBits
// fraction bits; exponent field e weighs the significand by 2^(e + kBinOffset + kUnitExponent).
template <typename Word_, int kFractionBits_, int kBinOffset_>
struct FloatFormat {
  using Word = Word_;
  static constexpr int kFractionBits = kFractionBits_;
  static constexpr std::size_t kBinOffset = kBinOffset_;
  static constexpr int kExponentBits = static_cast<int>(sizeof(Word)) * 8 - 1 - kFractionBits;
  static constexpr std::uint64_t kExponentMask = (std::uint64_t{1} << kExponentBits) - 1;
  static constexpr std::uint64_t kFractionMask = (std::uint64_t{1} << kFractionBits) - 1;
  static constexpr bool kSplit = kFractionBits + 1 > kLowBits;
};
using Half = FloatFormat<std::uint16_t, 10, 1050>;   // 2^(e - 15 - 10)
using Single = FloatFormat<std::uint32_t, 23, 925>;  // 2^(e - 127 - 23)
using Double = FloatFormat<std::uint64_t, 52, 0>;    // 2^(e - 1023 - 52)

// Adds one value of Format, read from `p`, to the lane's bins.
template <typename Format, bool kSwap, bool kAbsolute>
void add_float(const std::byte* p, std::size_t lane, LongAccumulator& sum) {
  using Word = typename Format::Word;
  Word bits;
  std::memcpy(&bits, p, sizeof(Word));
  if constexpr (kSwap) bits = byte_swapped(bits);
  const std::uint64_t exponent = (std::uint64_t{bits} >> Format::kFractionBits) & Format::kExponentMask;
  const std::uint64_t fraction = bits & Format::kFractionMask;
  const bool negative = !kAbsolute && (bits >> (sizeof(Word) * 8 - 1)) != 0;
  if (exponent == Format::kExponentMask) {
    sum.add_special(fraction != 0, negative);
    return;
  }
  const std::uint64_t significand = exponent != 0 ? fraction | (std::uint64_t{1} << Format::kFractionBits) : fraction;
  const std::size_t bin = std::max<std::size_t>(exponent, 1) + Format::kBinOffset;
  sum.template add<Format::kSplit>(lane, bin, significand, negative);
}

// Adds `count` values of Format, `stride` bytes apart from `p` (a complex's real part comes
// first), the lanes in turn.
template <typename Format, bool kSwap, bool kAbsolute>
void add_floats(const std::byte* p, std::size_t count, std::size_t stride, LongAccumulator& sum) {
  std::size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (std::size_t lane = 0; lane < kLanes; ++lane)
      add_float<Format, kSwap, kAbsolute>(p + (i + lane) * stride, lane, sum);
  }
  for (; i < count; ++i) add_float<Format, kSwap, kAbsolute>(p + i * stride, 0, sum);
}

// The byte order and `absolute` become template arguments, so the loop does not test them
// for every element.
template <typename Format>
void add_floats(const std::byte* p, std::size_t count, std::size_t stride, bool swap, bool absolute,
                LongAccumulator& sum) {
  if (swap && absolute) return add_floats<Format, true, true>(p, count, stride, sum);
  if (swap) return add_floats<Format, true, false>(p, count, stride, sum);
  if (absolute) return add_floats<Format, false, true>(p, count, stride, sum);
  add_floats<Format, false, false>(p, count, stride, sum);
}

// What a worker adds: elements [first, first + count) of the array into its accumulator.
using AddRange = void (*)(const Array&, std::size_t first, std::size_t count, bool absolute, LongAccumulator&);

template <typename Format>
void add_float_range(const Array& array, std::size_t first, std::size_t count, bool absolute, LongAccumulator& sum) {
  const std::size_t stride = array.dtype.item_size;
  add_floats<Format>(array.data.data() + first * stride, count, stride, array.dtype.needs_swap(), absolute, sum);
}

// Any other floating size (none that .npy holds today): through value_at's double.
void add_widened_range(const Array& array, std::size_t first, std::size_t count, bool absolute, LongAccumulator& sum) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = array.value_at(first + i);
  add_floats<Double>(reinterpret_cast<const std::byte*>(values.data()), count, sizeof(double), false, absolute, sum);
}

AddRange float_adder(const Array& array) {
  const std::size_t component =
      array.dtype.kind == DtypeKind::kComplex ? array.dtype.item_size / 2 : array.dtype.item_size;
  switch (component) {
    case 2: return add_float_range<Half>;
    case 4: return add_float_range<Single>;
    case 8: return add_float_range<Double>;
    default: return add_widened_range;
  }
}

// Each thread sums a contiguous share, flushing every kElementsPerFlush; the exact totals
// are merged in any order.
double exact_float_mean(const Array& array, bool absolute) {
  const std::size_t n = array.size();
  const AddRange add_range = float_adder(array);
  const std::size_t threads = std::clamp<std::size_t>(
      std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), n / kElementsPerThread), 1,
      kMaxSumThreads);
  std::vector<std::unique_ptr<LongAccumulator>> sums;
  for (std::size_t t = 0; t < threads; ++t) sums.push_back(std::make_unique<LongAccumulator>());
  const auto work = [&](std::size_t t) {
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    for (std::size_t first = begin; first < end; first += kElementsPerFlush) {
      add_range(array, first, std::min(kElementsPerFlush, end - first), absolute, *sums[t]);
      sums[t]->flush();
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work, t);
    work(0);
  }
  for (std::size_t t = 1; t < threads; ++t) sums[0]->merge(*sums[t]);
  return sums[0]->mean(n);
}

// Integers (and bool) sum exactly in 128 bits: 2^64 values of 64 bits cannot overflow it.
double exact_integer_mean(const Array& array, bool absolute) {
  const bool is_unsigned = array.dtype.kind == DtypeKind::kUInt;
  __int128 sum = 0;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const __int128 value = is_unsigned ? static_cast<__int128>(array.uint_at(i)) : array.int_at(i);
    sum += absolute && value < 0 ? -value : value;
  }
  return static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(array.size()));
}

}  // namespace

double exact_mean(const Array& array, bool absolute) {
  if (array.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  const bool floating = array.dtype.kind == DtypeKind::kFloat || array.dtype.kind == DtypeKind::kComplex;
  return floating ? exact_float_mean(array, absolute) : exact_integer_mean(array, absolute);
}

}  // namespace tipc::align
