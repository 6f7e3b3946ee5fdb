#pragma once
// numpy-exact reductions over a diff, computed block by block so the diff array is never
// materialised and the blocks can be summarised on several threads.
//
// numpy's add.reduce feeds its inner loop in buffers of 8192 elements and each call sums
// its buffer pairwise (8 partial sums below 128 elements, halving above), accumulating the
// buffer sums in order. Reproducing that order exactly is what makes float32 means
// digit-identical to reprod_log's output; a naive or double-precision sum differs in the
// last digits (docs/log-formats.md#reprod_log-statistics). Summarising each 8192-element block on its own and adding the
// block sums in block order is therefore exactly numpy's result, whichever thread did a block.
#include <cstddef>
#include <span>

#include "align/io/array.h"

namespace tipc::align {

inline constexpr std::size_t kNumpyReduceBlock = 8192;

// numpy's pairwise_sum for one buffer, in T's arithmetic (float or double).
template <typename T>
T numpy_pairwise_sum(std::span<const T> x);

// np.mean(t) or np.mean(np.abs(t)) of the array as stored: the blocks in memory order,
// float16 and float32 accumulated in float32 (the result rounded to the input's dtype),
// every other dtype in float64. PaDiff's own mean; it depends on the storage order in its
// last bits (exact_sum.h has the mean that does not).
double numpy_mean(const Array& array, bool absolute);

// What the reductions need to know about one block of at most kNumpyReduceBlock values.
template <typename T>
struct BlockSummary {
  T sum = 0;  // numpy_pairwise_sum of the block
  T min = 0;
  T max = 0;
  bool has_nan = false;
};

// A non-empty block of absolute differences (each >= 0 or NaN): its pairwise sum, extremes
// and whether it holds a NaN.
template <typename T>
BlockSummary<T> summarize_diff_block(std::span<const T> diffs);

// Blocks merged in order: the running sum adds block sums in T, as add.reduce does, and a
// NaN anywhere makes min and max NaN, as numpy's min/max propagate it.
template <typename T>
class StreamTotals {
 public:
  void add(const BlockSummary<T>& block);
  T sum() const { return sum_; }
  T min() const;
  T max() const;

 private:
  T sum_ = 0;
  T min_ = 0;
  T max_ = 0;
  bool has_nan_ = false;
  bool empty_ = true;
};

}  // namespace tipc::align
