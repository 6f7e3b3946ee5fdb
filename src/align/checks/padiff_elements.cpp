#include "align/checks/padiff_elements.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

namespace tipc::align {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// |a - b| for the difference report: 0 where the tolerance test treats two special values
// as equal, infinite where no tolerance can make them pass.
double difference(double a, double b) {
  if (std::isfinite(a) && std::isfinite(b)) return std::fabs(a - b);
  return within_tolerance(a, b, Tolerance{}) ? 0 : kInfinity;
}

// Elements are compared a block at a time, read into doubles first.
constexpr std::size_t kElementBlock = 4096;

// Storage offsets of a Fortran-ordered array's elements in C order, from element `first` on.
void fortran_offsets(const Array& array, std::size_t first, std::span<std::size_t> out) {
  const std::size_t ndim = array.ndim();
  std::vector<std::size_t> index = unravel_index(first, array.shape), strides(ndim, 1);
  std::size_t offset = 0;
  for (std::size_t axis = 0; axis < ndim; ++axis) {
    if (axis > 0) strides[axis] = strides[axis - 1] * array.shape[axis - 1];
    offset += index[axis] * strides[axis];
  }
  for (std::size_t& slot : out) {
    slot = offset;
    for (std::size_t axis = ndim; axis-- > 0;) {  // the last axis varies fastest
      offset += strides[axis];
      if (++index[axis] < array.shape[axis]) break;
      offset -= strides[axis] * array.shape[axis];
      index[axis] = 0;
    }
  }
}

// Whether the array holds floats of `size` bytes in the host's byte order, read straight.
bool native_float(const Array& array, std::size_t size) {
  return array.dtype == Dtype{DtypeKind::kFloat, size, ByteOrder::kLittle} && !array.dtype.needs_swap();
}

template <typename T>
double native_at(const std::byte* data, std::size_t offset) {
  T value;
  std::memcpy(&value, data + offset * sizeof(T), sizeof(T));
  return value;
}

// out[i] = the element stored at offset(i), widened to double: native float32 and float64
// straight, anything else through value_at (a dtype switch per element).
template <typename Offset>
void read_at(const Array& array, Offset offset, std::span<double> out) {
  const std::byte* data = array.data.data();
  if (native_float(array, 4)) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = native_at<float>(data, offset(i));
  } else if (native_float(array, 8)) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = native_at<double>(data, offset(i));
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = array.value_at(offset(i));
  }
}

// Elements [first, first + out.size()) of `array` in C order, widened to double; a 0-d
// array repeats its one value.
void read_c_order(const Array& array, std::size_t first, std::span<double> out) {
  if (array.ndim() == 0) {
    std::fill(out.begin(), out.end(), array.value_at(0));
    return;
  }
  if (array.fortran_order && array.ndim() > 1) {
    std::vector<std::size_t> offsets(out.size());
    fortran_offsets(array, first, offsets);
    read_at(
        array, [&offsets](std::size_t i) { return offsets[i]; }, out);
  } else {
    read_at(
        array, [first](std::size_t i) { return first + i; }, out);
  }
}

// The element pass's running totals: elements outside the tolerance, the largest |a - b|
// and the first element in C order where it is, whatever order the runs come in.
class DiffTally {
 public:
  explicit DiffTally(const Tolerance& tolerance) : tolerance_(tolerance) { totals_.max_abs = -1; }

  // Adds the pairs (xs[k], ys[k]), elements first + k in C order. The totals are kept in
  // locals meanwhile: a double in memory might alias xs or ys, and would be stored each time.
  void add_run(std::span<const double> xs, std::span<const double> ys, std::size_t first) {
    ElementDiff run = totals_;
    std::size_t worst = worst_;
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const double x = xs[k], y = ys[k];
      double d;
      if (std::isfinite(x) && std::isfinite(y)) {  // within_tolerance and difference, inlined
        d = std::fabs(x - y);
        if (!(d <= tolerance_.atol + tolerance_.rtol * std::fabs(y))) ++run.outside;
      } else {
        if (!within_tolerance(x, y, tolerance_)) ++run.outside;
        d = difference(x, y);
      }
      if (d > run.max_abs || (d == run.max_abs && first + k < worst)) {  // d >= 0 > the initial -1
        run.max_abs = d;
        run.a_at_max = x;
        run.b_at_max = y;
        worst = first + k;
      }
    }
    totals_ = run;
    worst_ = worst;
  }

  // The totals, with the argmax's index into `shape` and `total` elements.
  ElementDiff result(const std::vector<std::size_t>& shape, std::size_t total) const {
    ElementDiff out = totals_;
    out.argmax = unravel_index(worst_, shape);
    out.total = total;
    return out;
  }

 private:
  const Tolerance& tolerance_;
  ElementDiff totals_;  // without argmax and total; max_abs -1 until the first element
  std::size_t worst_ = 0;
};

// Row `row`, columns [col, col + out.size()) of a 2-D array, in either storage order.
void read_row_part(const Array& array, std::size_t row, std::size_t col, std::span<double> out) {
  const std::size_t rows = array.shape[0], cols = array.shape[1];
  if (array.fortran_order)
    read_at(
        array, [=](std::size_t k) { return (col + k) * rows + row; }, out);
  else
    read_at(
        array, [=](std::size_t k) { return row * cols + col + k; }, out);
}

// A 2-D pair with a side in Fortran order (a transposed weight) is walked tile by tile, so
// that each side is read near where it was last read: in C order, every element of the
// Fortran side is on another page (64 KiB apart in a [16384, 4096] float32 weight) and the
// pass waits on the TLB (bench/RESULTS.md, "PaDiff comparison").
constexpr std::size_t kTile = 64;

void tally_tiles(const Array& a, const Array& b, DiffTally& tally) {
  const std::size_t rows = a.shape[0], cols = a.shape[1];
  std::array<double, kTile> xs, ys;
  for (std::size_t row0 = 0; row0 < rows; row0 += kTile) {
    for (std::size_t col = 0; col < cols; col += kTile) {
      const std::size_t width = std::min(kTile, cols - col);
      for (std::size_t row = row0; row < std::min(rows, row0 + kTile); ++row) {
        read_row_part(a, row, col, {xs.data(), width});
        read_row_part(b, row, col, {ys.data(), width});
        tally.add_run({xs.data(), width}, {ys.data(), width}, row * cols + col);
      }
    }
  }
}

}  // namespace

std::optional<ElementDiff> element_diff(const Array& a, const Array& b, const Tolerance& tolerance) {
  const bool a_scalar = a.ndim() == 0, b_scalar = b.ndim() == 0;
  if (a.shape != b.shape && !a_scalar && !b_scalar) return std::nullopt;
  const std::vector<std::size_t>& shape = a_scalar ? b.shape : a.shape;
  const std::size_t total = element_count(shape).value_or(0);
  if (total == 0) return ElementDiff{};
  DiffTally tally(tolerance);
  if (a.ndim() == 2 && b.ndim() == 2 && (a.fortran_order || b.fortran_order)) {
    tally_tiles(a, b, tally);
  } else {
    std::vector<double> xs(kElementBlock), ys(kElementBlock);
    for (std::size_t first = 0; first < total; first += kElementBlock) {
      const std::size_t count = std::min(kElementBlock, total - first);
      read_c_order(a, first, {xs.data(), count});
      read_c_order(b, first, {ys.data(), count});
      tally.add_run({xs.data(), count}, {ys.data(), count}, first);
    }
  }
  return tally.result(shape, total);
}

}  // namespace tipc::align
