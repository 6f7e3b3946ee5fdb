#pragma once
// The diff of two arrays as reprod_log computes it: optional auto-transpose of the first,
// numpy broadcasting, |a - b| in numpy's promoted dtype (integer wrap-around included),
// then min / max / mean of that diff in its dtype, reduced in numpy's exact order: blocks
// and pairwise sums as numpy takes them, over the elements in C order (or, as reprod_log,
// in the diff's memory order: LeafDiffOptions::numpy_memory_order).
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "align/io/array.h"

namespace tipc::align {

// One statistic as numpy returns it: a floating scalar (printed as a Python float) or an
// integer scalar (printed as a Python int, e.g. "255").
struct StatValue {
  bool integral = false;
  double real = 0;       // floating results, widened exactly from the diff dtype
  __int128 integer = 0;  // integer results

  double as_double() const { return integral ? static_cast<double>(integer) : real; }
  bool is_nan() const;
  std::string text() const;  // what reprod_log prints: "0.0", "1e-05", "255", "nan"
};

struct LeafStats {
  StatValue min, max, mean;
};

struct LeafDiff {
  LeafStats stats;
  Dtype diff_dtype;                // the dtype of |a - b| (complex inputs give real)
  std::vector<std::size_t> shape;  // the broadcast shape
  bool transposed_first = false;   // a was replaced by a.T (reprod_log prints "transpose sub_data1")
  bool broadcast = false;          // the shapes differed and numpy broadcast them
  bool wrapped = false;            // integer |a - b| overflowed its dtype (numpy wraps silently)
};

struct LeafDiffOptions {
  // strict: integer diffs as exact |a - b| instead of numpy's wrapped arithmetic.
  bool exact_integers = false;
  // b is read as numpy's b.transpose(second_axes) (a layout transform); empty: as stored.
  std::vector<std::size_t> second_axes;
  // The mean sums the diff in numpy's memory order (Fortran order when both operands are
  // Fortran-contiguous, reprod_log's digits) instead of C order, the logical order that
  // gives the same digits for the same values whatever their layout.
  bool numpy_memory_order = false;
};

// The failure text mirrors the condition numpy raised (broadcast, bool subtract, empty);
// the caller adds key and file names.
tl::expected<LeafDiff, std::string> diff_arrays(const Array& a, const Array& b, const LeafDiffOptions& options);

// numpy's compact shape spelling in broadcast errors: "(2,3)", "(4,)", "()".
std::string numpy_shape_text(const std::vector<std::size_t>& shape);

}  // namespace tipc::align
