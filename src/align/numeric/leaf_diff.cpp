#include "align/numeric/leaf_diff.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

#include "align/io/py_repr.h"
#include "align/numeric/parallel_blocks.h"
#include "align/numeric/promote.h"
#include "align/numeric/reduce.h"

namespace tipc::align {
namespace {

// ---- element layout: an operand is a strided view of an array's storage -------------

struct Operand {
  const Array* array = nullptr;
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;  // in elements of storage
};

Operand operand_of(const Array& array) {
  Operand op{&array, array.shape, std::vector<std::ptrdiff_t>(array.ndim())};
  std::ptrdiff_t step = 1;
  for (std::size_t i = 0; i < array.ndim(); ++i) {
    const std::size_t axis = array.fortran_order ? i : array.ndim() - 1 - i;
    op.strides[axis] = step;
    step *= static_cast<std::ptrdiff_t>(array.shape[axis]);
  }
  return op;
}

// a.T: all axes reversed; the storage stays, only the view changes.
void transpose(Operand& op) {
  std::reverse(op.shape.begin(), op.shape.end());
  std::reverse(op.strides.begin(), op.strides.end());
}

// numpy's op.transpose(axes), also only a view. The caller checked that axes fit.
void permute(Operand& op, const std::vector<std::size_t>& axes) {
  Operand permuted{op.array, {}, {}};
  for (const std::size_t axis : axes) {
    permuted.shape.push_back(op.shape[axis]);
    permuted.strides.push_back(op.strides[axis]);
  }
  op = std::move(permuted);
}

std::optional<std::vector<std::size_t>> broadcast_shape(const std::vector<std::size_t>& a,
                                                        const std::vector<std::size_t>& b) {
  const std::size_t nd = std::max(a.size(), b.size());
  std::vector<std::size_t> out(nd);
  for (std::size_t i = 0; i < nd; ++i) {
    const std::size_t da = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const std::size_t db = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Leading axes are added and length-1 axes repeat: both get stride 0.
Operand broadcast_to(const Operand& op, const std::vector<std::size_t>& shape) {
  Operand out{op.array, shape, std::vector<std::ptrdiff_t>(shape.size(), 0)};
  const std::size_t pad = shape.size() - op.shape.size();
  for (std::size_t i = 0; i < op.shape.size(); ++i) {
    if (op.shape[i] != 1 || shape[pad + i] == 1) out.strides[pad + i] = op.strides[i];
  }
  return out;
}

bool contiguous(const Operand& op, bool fortran) {
  std::ptrdiff_t expected = 1;
  for (std::size_t i = 0; i < op.shape.size(); ++i) {
    const std::size_t axis = fortran ? i : op.shape.size() - 1 - i;
    if (op.shape[axis] == 0) return true;
    if (op.shape[axis] != 1 && op.strides[axis] != expected) return false;
    expected *= static_cast<std::ptrdiff_t>(op.shape[axis]);
  }
  return true;
}

// numpy allocates the diff in Fortran order only when every operand is Fortran-contiguous
// and not C-contiguous; the mean then sums in that memory order (fortran_mean_f32 case).
bool diff_is_fortran_ordered(const Operand& a, const Operand& b, const std::vector<std::size_t>& shape) {
  const auto fortran_only = [&](const Operand& op) {
    return op.shape == shape && contiguous(op, true) && !contiguous(op, false);
  };
  return fortran_only(a) && fortran_only(b);
}

struct Pairing {
  Operand a, b;
  std::vector<std::size_t> shape;
  std::size_t total = 0;  // elements in the result
  bool fortran = false;   // the result's memory order
  bool linear = false;    // both operands are stored in the result's order: offset == index
};

// Storage offsets of a and b for consecutive result elements in the result's memory order,
// starting at any element so that blocks can be produced independently.
class PairCursor {
 public:
  PairCursor(const Pairing& p, std::size_t start) : p_(p), index_(p.shape.size(), 0) {
    for (std::size_t i = 0; i < p.shape.size(); ++i) {
      const std::size_t axis = iteration_axis(i);
      index_[axis] = start % p.shape[axis];
      start /= p.shape[axis];
      offset_a_ += static_cast<std::ptrdiff_t>(index_[axis]) * p.a.strides[axis];
      offset_b_ += static_cast<std::ptrdiff_t>(index_[axis]) * p.b.strides[axis];
    }
  }
  std::size_t a() const { return static_cast<std::size_t>(offset_a_); }
  std::size_t b() const { return static_cast<std::size_t>(offset_b_); }

  void advance() {
    for (std::size_t i = 0; i < index_.size(); ++i) {
      const std::size_t axis = iteration_axis(i);
      ++index_[axis];
      offset_a_ += p_.a.strides[axis];
      offset_b_ += p_.b.strides[axis];
      if (index_[axis] < p_.shape[axis]) return;
      const auto extent = static_cast<std::ptrdiff_t>(p_.shape[axis]);
      offset_a_ -= p_.a.strides[axis] * extent;
      offset_b_ -= p_.b.strides[axis] * extent;
      index_[axis] = 0;
    }
  }

 private:
  // The fastest-varying axis first.
  std::size_t iteration_axis(std::size_t i) const { return p_.fortran ? i : index_.size() - 1 - i; }

  const Pairing& p_;
  std::vector<std::size_t> index_;
  std::ptrdiff_t offset_a_ = 0, offset_b_ = 0;
};

// Writes element_diff(storage index in a, storage index in b) for the result elements
// [start, start + out.size()).
template <typename D, typename ElementDiff>
void fill_diffs(const Pairing& p, std::size_t start, std::span<D> out, const ElementDiff& element_diff) {
  if (p.linear) {
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = element_diff(start + k, start + k);
    return;
  }
  PairCursor cursor(p, start);
  for (D& d : out) {
    d = element_diff(cursor.a(), cursor.b());
    cursor.advance();
  }
}

// ---- element arithmetic in the promoted dtype ----------------------------------------

// Rounds to the nearest IEEE half (ties to even), returned widened; numpy's float16 casts.
double round_to_half(double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  const double magnitude = std::fabs(v);
  if (magnitude >= 65520.0) return std::copysign(INFINITY, v);  // past the halfway point above 65504
  int exponent = 0;
  std::frexp(magnitude, &exponent);
  const int quantum = std::max(exponent - 11, -24);  // 11 significant bits, subnormals at 2^-24
  return std::copysign(std::ldexp(std::nearbyint(std::ldexp(magnitude, -quantum)), quantum), v);
}

__int128 exact_integer(const Array& array, std::size_t i) {
  return array.dtype.kind == DtypeKind::kUInt ? static_cast<__int128>(array.uint_at(i)) : array.int_at(i);
}

// Keeps the low `bytes` bytes of v, read back as signed or unsigned: numpy's wrap-around.
__int128 wrap(__int128 v, std::size_t bytes, bool is_signed) {
  const unsigned bits = static_cast<unsigned>(8 * bytes);
  const auto mask = (static_cast<unsigned __int128>(1) << bits) - 1;
  const unsigned __int128 low = static_cast<unsigned __int128>(v) & mask;
  const auto sign_bit = static_cast<unsigned __int128>(1) << (bits - 1);
  if (is_signed && (low & sign_bit) != 0) return static_cast<__int128>(low) - static_cast<__int128>(mask) - 1;
  return static_cast<__int128>(low);
}

// np.abs(a - b) in an integer dtype: the subtraction wraps, and abs wraps too (abs of the
// most negative value is itself; unsigned abs does nothing).
__int128 wrapped_abs_diff(__int128 a, __int128 b, const Dtype& dtype) {
  const bool is_signed = dtype.kind == DtypeKind::kInt;
  const __int128 diff = wrap(a - b, dtype.item_size, is_signed);
  return is_signed && diff < 0 ? wrap(-diff, dtype.item_size, true) : diff;
}

StatValue floating(double v) { return StatValue{false, v, 0}; }
StatValue integral(__int128 v) { return StatValue{true, 0, v}; }

template <typename T>
bool stored_natively(const Array& array) {
  return array.dtype == Dtype{DtypeKind::kFloat, sizeof(T),
                              std::endian::native == std::endian::little ? ByteOrder::kLittle : ByteOrder::kBig};
}

// The hot path: both operands already hold T in this machine's order, element for element
// in the result's order, so |a - b| is a plain loop (memcpy: pickled payloads are unaligned).
template <typename T>
void native_abs_diffs(const Array& a, const Array& b, std::size_t start, std::span<T> out) {
  const std::byte* pa = a.data.data() + start * sizeof(T);
  const std::byte* pb = b.data.data() + start * sizeof(T);
  for (std::size_t k = 0; k < out.size(); ++k) {
    T x, y;
    std::memcpy(&x, pa + k * sizeof(T), sizeof(T));
    std::memcpy(&y, pb + k * sizeof(T), sizeof(T));
    out[k] = std::fabs(x - y);
  }
}

// Min, max and mean of a floating diff in T, streamed block by block.
template <typename T, typename ElementDiff>
LeafStats float_stats(const Pairing& p, bool half_output, const ElementDiff& element_diff) {
  const Array &a = *p.a.array, &b = *p.b.array;
  const bool native = p.linear && stored_natively<T>(a) && stored_natively<T>(b);
  const auto blocks = summarize_blocks<BlockSummary<T>>(p.total, [&] {
    return [&, buffer = std::vector<T>(kNumpyReduceBlock)](std::size_t start, std::size_t count) mutable {
      const std::span<T> diffs(buffer.data(), count);
      if (native) {
        native_abs_diffs(a, b, start, diffs);
      } else {
        fill_diffs(p, start, diffs, element_diff);
      }
      return summarize_diff_block(std::span<const T>(diffs));
    };
  });
  StreamTotals<T> totals;
  for (const auto& block : blocks) totals.add(block);
  // x.mean(): the sum in T, divided by n in double, rounded to the output dtype.
  const double mean = static_cast<double>(totals.sum()) / static_cast<double>(p.total);
  return LeafStats{floating(totals.min()), floating(totals.max()),
                   floating(half_output ? round_to_half(mean) : static_cast<T>(mean))};
}

LeafStats float_diff(const Pairing& p, const Dtype& dtype) {
  const Array &a = *p.a.array, &b = *p.b.array;
  if (dtype.item_size == 8) {
    return float_stats<double>(p, false,
                               [&](std::size_t i, std::size_t j) { return std::fabs(a.value_at(i) - b.value_at(j)); });
  }
  if (dtype.item_size == 2) {
    // Half operands differ exactly in double; one rounding gives numpy's half result, which
    // a float holds exactly (numpy sums f2 in f4).
    return float_stats<float>(p, true, [&](std::size_t i, std::size_t j) {
      return static_cast<float>(std::fabs(round_to_half(round_to_half(a.value_at(i)) - round_to_half(b.value_at(j)))));
    });
  }
  return float_stats<float>(p, false, [&](std::size_t i, std::size_t j) {
    return std::fabs(static_cast<float>(a.value_at(i)) - static_cast<float>(b.value_at(j)));
  });
}

// |a - b| of complex operands is real: hypot of the component differences.
LeafStats complex_diff(const Pairing& p, const Dtype& dtype) {
  const Array &a = *p.a.array, &b = *p.b.array;
  if (dtype.item_size == 16) {
    return float_stats<double>(p, false, [&](std::size_t i, std::size_t j) {
      const auto d = a.complex_at(i) - b.complex_at(j);
      return std::hypot(d.real(), d.imag());
    });
  }
  return float_stats<float>(p, false, [&](std::size_t i, std::size_t j) {
    const auto x = a.complex_at(i), y = b.complex_at(j);
    const float re = static_cast<float>(x.real()) - static_cast<float>(y.real());
    const float im = static_cast<float>(x.imag()) - static_cast<float>(y.imag());
    return std::hypot(re, im);
  });
}

struct IntegerBlock {
  __int128 min = 0, max = 0;
  double sum = 0;  // the mean of an integer array accumulates in float64
  bool wrapped = false;
};

LeafStats integer_diff(const Pairing& p, const Dtype& dtype, bool exact, bool& wrapped) {
  const Array &a = *p.a.array, &b = *p.b.array;
  const auto blocks = summarize_blocks<IntegerBlock>(p.total, [&] {
    return [&, diffs = std::vector<__int128>(kNumpyReduceBlock), widened = std::vector<double>(kNumpyReduceBlock)](
               std::size_t start, std::size_t count) mutable {
      IntegerBlock out;
      fill_diffs(p, start, std::span<__int128>(diffs.data(), count), [&](std::size_t i, std::size_t j) {
        const __int128 x = exact_integer(a, i), y = exact_integer(b, j);
        const __int128 true_diff = x > y ? x - y : y - x;
        const __int128 numpy_diff = wrapped_abs_diff(x, y, dtype);
        out.wrapped = out.wrapped || true_diff != numpy_diff;
        return exact ? true_diff : numpy_diff;
      });
      const auto [low, high] = std::minmax_element(diffs.begin(), diffs.begin() + static_cast<std::ptrdiff_t>(count));
      std::copy_n(diffs.begin(), count, widened.begin());
      return IntegerBlock{*low, *high, numpy_pairwise_sum(std::span<const double>(widened.data(), count)), out.wrapped};
    };
  });
  IntegerBlock total = blocks.front();
  total.sum = 0;
  for (const auto& block : blocks) {
    total.min = std::min(total.min, block.min);
    total.max = std::max(total.max, block.max);
    total.sum += block.sum;
    wrapped = wrapped || block.wrapped;
  }
  return LeafStats{integral(total.min), integral(total.max), floating(total.sum / static_cast<double>(p.total))};
}

}  // namespace

bool StatValue::is_nan() const { return !integral && std::isnan(real); }

std::string StatValue::text() const { return integral ? python_int_repr(integer) : python_float_repr(real); }

std::string numpy_shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

tl::expected<LeafDiff, std::string> diff_arrays(const Array& a, const Array& b, const LeafDiffOptions& options) {
  LeafDiff out;
  Operand first = operand_of(a);
  Operand second = operand_of(b);
  if (!options.second_axes.empty()) permute(second, options.second_axes);
  std::vector<std::size_t> reversed(a.shape.rbegin(), a.shape.rend());
  if (a.shape != second.shape && reversed == second.shape) {
    transpose(first);
    out.transposed_first = true;
  }
  const auto shape = broadcast_shape(first.shape, second.shape);
  if (!shape) {
    return tl::unexpected("operands could not be broadcast together with shapes " + numpy_shape_text(first.shape) +
                          " " + numpy_shape_text(second.shape) + " ");
  }
  out.shape = *shape;
  out.broadcast = first.shape != second.shape;
  out.diff_dtype = result_type_for_subtract(a, b);
  if (out.diff_dtype.kind == DtypeKind::kBool) {
    return tl::unexpected(std::string("numpy boolean subtract, the `-` operator, is not supported"));
  }
  if (element_count(out.shape).value_or(0) == 0) {
    return tl::unexpected(std::string("zero-size array to reduction operation maximum which has no identity"));
  }
  Pairing pairing{broadcast_to(first, out.shape), broadcast_to(second, out.shape), out.shape,
                  *element_count(out.shape)};
  pairing.fortran = options.numpy_memory_order && diff_is_fortran_ordered(pairing.a, pairing.b, out.shape);
  // A broadcast axis has stride 0 and is never contiguous, so linear also means nothing broadcast.
  pairing.linear = contiguous(pairing.a, pairing.fortran) && contiguous(pairing.b, pairing.fortran);
  switch (out.diff_dtype.kind) {
    case DtypeKind::kFloat: out.stats = float_diff(pairing, out.diff_dtype); break;
    case DtypeKind::kComplex:
      out.stats = complex_diff(pairing, out.diff_dtype);
      out.diff_dtype = Dtype{DtypeKind::kFloat, out.diff_dtype.item_size / 2, ByteOrder::kLittle};
      break;
    default: out.stats = integer_diff(pairing, out.diff_dtype, options.exact_integers, out.wrapped); break;
  }
  return out;
}

}  // namespace tipc::align
