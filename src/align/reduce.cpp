#include "align/reduce.h"

#include <cmath>

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

template <typename T>
T numpy_sum(std::span<const T> x) {
  T acc = 0;
  for (std::size_t start = 0; start < x.size(); start += kNumpyReduceBlock) {
    acc += numpy_pairwise_sum(x.subspan(start, std::min(kNumpyReduceBlock, x.size() - start)));
  }
  return acc;
}

template <typename T>
double numpy_mean(std::span<const T> x) {
  return static_cast<double>(numpy_sum(x)) / static_cast<double>(x.size());
}

template <typename T>
T nan_propagating_min(std::span<const T> x) {
  T best = x.front();
  for (const T v : x) {
    if (std::isnan(v)) return v;
    if (v < best) best = v;
  }
  return best;
}

template <typename T>
T nan_propagating_max(std::span<const T> x) {
  T best = x.front();
  for (const T v : x) {
    if (std::isnan(v)) return v;
    if (v > best) best = v;
  }
  return best;
}

template float numpy_pairwise_sum<float>(std::span<const float>);
template double numpy_pairwise_sum<double>(std::span<const double>);
template float numpy_sum<float>(std::span<const float>);
template double numpy_sum<double>(std::span<const double>);
template double numpy_mean<float>(std::span<const float>);
template double numpy_mean<double>(std::span<const double>);
template float nan_propagating_min<float>(std::span<const float>);
template double nan_propagating_min<double>(std::span<const double>);
template float nan_propagating_max<float>(std::span<const float>);
template double nan_propagating_max<double>(std::span<const double>);

}  // namespace tipc::align
