#include "align/numeric/reduce.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace tipc::align {

template <typename T>
T numpy_pairwise_sum(std::span<const T> x) {
  const std::size_t n = x.size();
  if (n < 8) {
    T sum = 0;
    for (const T v : x) sum += v;
    return sum;
  }
  if (n <= 128) {
    T r[8];
    for (std::size_t j = 0; j < 8; ++j) r[j] = x[j];
    const std::size_t whole = n - n % 8;
    for (std::size_t i = 8; i < whole; i += 8) {
      for (std::size_t j = 0; j < 8; ++j) r[j] += x[i + j];
    }
    T sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (std::size_t i = whole; i < n; ++i) sum += x[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(x.subspan(0, half)) + numpy_pairwise_sum(x.subspan(half));
}

// The extremes of a block, ignoring NaN (every lane comparison with NaN is false), in
// 16-byte vectors: without fast-math GCC will not vectorise a scalar min/max loop itself.
template <typename T>
std::pair<T, T> extremes_ignoring_nan(std::span<const T> x) {
  using Lanes [[gnu::vector_size(16)]] = T;
  constexpr std::size_t kLanes = sizeof(Lanes) / sizeof(T);
  T low = x.front(), high = x.front();
  std::size_t i = 0;
  if (x.size() >= kLanes) {
    Lanes lows, highs;
    std::memcpy(&lows, x.data(), sizeof(Lanes));
    highs = lows;
    for (; i + kLanes <= x.size(); i += kLanes) {
      Lanes v;
      std::memcpy(&v, x.data() + i, sizeof(Lanes));
      lows = v < lows ? v : lows;
      highs = v > highs ? v : highs;
    }
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      low = lows[lane] < low ? lows[lane] : low;
      high = highs[lane] > high ? highs[lane] : high;
    }
  }
  for (; i < x.size(); ++i) {
    low = x[i] < low ? x[i] : low;
    high = x[i] > high ? x[i] : high;
  }
  return {low, high};
}

template <typename T>
BlockSummary<T> summarize_diff_block(std::span<const T> diffs) {
  const T sum = numpy_pairwise_sum(diffs);
  const auto [low, high] = extremes_ignoring_nan(diffs);
  // Diffs are >= 0 or NaN, so the sum is NaN exactly when the block holds a NaN.
  return BlockSummary<T>{sum, low, high, std::isnan(sum)};
}

template <typename T>
void StreamTotals<T>::add(const BlockSummary<T>& block) {
  sum_ += block.sum;
  min_ = empty_ || block.min < min_ ? block.min : min_;
  max_ = empty_ || block.max > max_ ? block.max : max_;
  has_nan_ = has_nan_ || block.has_nan;
  empty_ = false;
}

template <typename T>
T StreamTotals<T>::min() const {
  return has_nan_ ? std::numeric_limits<T>::quiet_NaN() : min_;
}

template <typename T>
T StreamTotals<T>::max() const {
  return has_nan_ ? std::numeric_limits<T>::quiet_NaN() : max_;
}

namespace {

// numpy's mean in accumulator type T: add.reduce's blocks in memory order, each summed pairwise.
template <typename T>
double numpy_mean_in(const Array& array, bool absolute) {
  const std::size_t n = array.size();
  std::vector<T> block;
  T total = 0;
  for (std::size_t start = 0; start < n; start += kNumpyReduceBlock) {
    block.resize(std::min(kNumpyReduceBlock, n - start));
    for (std::size_t i = 0; i < block.size(); ++i) {
      const T value = static_cast<T>(array.value_at(start + i));
      block[i] = absolute ? std::abs(value) : value;
    }
    total += numpy_pairwise_sum(std::span<const T>(block));
  }
  return static_cast<double>(total) / static_cast<double>(n);
}

}  // namespace

double numpy_mean(const Array& array, bool absolute) {
  if (array.size() == 0) return std::numeric_limits<double>::quiet_NaN();  // numpy: nan, with a warning
  if (array.dtype.kind != DtypeKind::kFloat || array.dtype.item_size > 4) return numpy_mean_in<double>(array, absolute);
  const float mean = static_cast<float>(numpy_mean_in<float>(array, absolute));
  // _Float16 (GCC and Clang) rounds to nearest even, as numpy's float32 -> float16 cast does.
  return array.dtype.item_size == 2 ? static_cast<double>(static_cast<_Float16>(mean)) : mean;
}

template float numpy_pairwise_sum<float>(std::span<const float>);
template double numpy_pairwise_sum<double>(std::span<const double>);
template BlockSummary<float> summarize_diff_block<float>(std::span<const float>);
template BlockSummary<double> summarize_diff_block<double>(std::span<const double>);
template class StreamTotals<float>;
template class StreamTotals<double>;

}  // namespace tipc::align
