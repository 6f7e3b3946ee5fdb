#pragma once
// numpy-exact reductions over a diff array laid out in memory order.
//
// numpy's add.reduce feeds its inner loop in buffers of 8192 elements and each call sums
// its buffer pairwise (8 partial sums below 128 elements, halving above). Reproducing that
// order exactly is what makes float32 means digit-identical to reprod_log's output; a
// naive or double-precision sum differs in the last digits (spec §2.5).
#include <cstddef>
#include <algorithm>
#include <span>

namespace tipc::align {

inline constexpr std::size_t kNumpyReduceBlock = 8192;

// numpy's pairwise_sum for one buffer, in T's arithmetic (float or double).
template <typename T>
T numpy_pairwise_sum(std::span<const T> x);

// add.reduce over the whole sequence: blocks of 8192, each pairwise-summed into acc.
template <typename T>
T numpy_sum(std::span<const T> x);

// x.mean() for a non-empty sequence: the T-accumulated sum divided by n in double
// (the caller rounds the result to the output dtype).
template <typename T>
double numpy_mean(std::span<const T> x);

// x.min() / x.max() for a non-empty sequence of floating values; NaN propagates.
template <typename T>
T nan_propagating_min(std::span<const T> x);
template <typename T>
T nan_propagating_max(std::span<const T> x);

}  // namespace tipc::align
