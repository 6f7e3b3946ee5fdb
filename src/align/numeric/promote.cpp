#include "align/numeric/promote.h"

#include <algorithm>
#include <cmath>

namespace tipc::align {
namespace {

Dtype make(DtypeKind kind, std::size_t size) {
  return Dtype{kind, size, size == 1 ? ByteOrder::kNotApplicable : ByteOrder::kLittle};
}

bool is_integer(DtypeKind k) { return k == DtypeKind::kInt || k == DtypeKind::kUInt; }

int category(DtypeKind k) {
  switch (k) {
    case DtypeKind::kBool: return 0;
    case DtypeKind::kInt:
    case DtypeKind::kUInt: return 1;
    case DtypeKind::kFloat: return 2;
    case DtypeKind::kComplex: return 3;
  }
  return 0;
}

// The smallest float that holds every value of an integer type (numpy's "safe cast").
std::size_t float_size_for_integer(std::size_t int_size) { return int_size == 1 ? 2 : int_size == 2 ? 4 : 8; }

Dtype promote_integers(const Dtype& a, const Dtype& b) {
  if (a.kind == b.kind) return make(a.kind, std::max(a.item_size, b.item_size));
  const Dtype& u = a.kind == DtypeKind::kUInt ? a : b;
  const Dtype& s = a.kind == DtypeKind::kUInt ? b : a;
  if (s.item_size > u.item_size) return make(DtypeKind::kInt, s.item_size);
  if (u.item_size < 8) return make(DtypeKind::kInt, u.item_size * 2);
  return make(DtypeKind::kFloat, 8);  // u8 . i8: no integer type holds both
}

// Size of the real part a type needs when it meets floats or complex numbers.
std::size_t real_size(const Dtype& d) {
  if (is_integer(d.kind)) return float_size_for_integer(d.item_size);
  if (d.kind == DtypeKind::kComplex) return d.item_size / 2;
  if (d.kind == DtypeKind::kBool) return 2;
  return d.item_size;
}

Dtype smallest_integer_holding(__int128 value, bool prefer_signed) {
  if (value >= 0 && !prefer_signed) {
    for (std::size_t size : {1u, 2u, 4u}) {
      if (value < (static_cast<__int128>(1) << (8 * size))) return make(DtypeKind::kUInt, size);
    }
    return make(DtypeKind::kUInt, 8);
  }
  for (std::size_t size : {1u, 2u, 4u}) {
    const __int128 limit = static_cast<__int128>(1) << (8 * size - 1);
    if (value >= -limit && value < limit) return make(DtypeKind::kInt, size);
  }
  if (value >= 0 && value > INT64_MAX) return make(DtypeKind::kUInt, 8);
  return make(DtypeKind::kInt, 8);
}

// numpy's min_scalar_type for a 0-d array; a non-negative integer meeting a signed array
// is sized as signed (numpy's "small unsigned" rule: 3 vs i1 stays i1).
Dtype min_scalar_type(const Array& scalar, const Dtype& other) {
  const Dtype& d = scalar.dtype;
  if (is_integer(d.kind)) {
    const __int128 v = d.kind == DtypeKind::kUInt ? static_cast<__int128>(scalar.uint_at(0)) : scalar.int_at(0);
    return smallest_integer_holding(v, other.kind == DtypeKind::kInt);
  }
  if (d.kind == DtypeKind::kFloat) {
    const double v = scalar.value_at(0);
    if (v > -65000 && v < 65000) return make(DtypeKind::kFloat, 2);
    if (v > -3.4e38 && v < 3.4e38) return make(DtypeKind::kFloat, std::min<std::size_t>(4, d.item_size));
    return d;
  }
  if (d.kind == DtypeKind::kComplex) {
    const auto v = scalar.complex_at(0);
    const auto fits_f4 = [](double x) { return x > -3.4e38 && x < 3.4e38; };
    if (fits_f4(v.real()) && fits_f4(v.imag())) return make(DtypeKind::kComplex, 8);
    return d;
  }
  return d;
}

}  // namespace

Dtype promote_types(const Dtype& a, const Dtype& b) {
  if (a.kind == DtypeKind::kBool)
    return b.kind == DtypeKind::kBool ? make(DtypeKind::kBool, 1) : make(b.kind, b.item_size);
  if (b.kind == DtypeKind::kBool) return make(a.kind, a.item_size);
  if (is_integer(a.kind) && is_integer(b.kind)) return promote_integers(a, b);
  const std::size_t real = std::max(real_size(a), real_size(b));
  const bool complex = a.kind == DtypeKind::kComplex || b.kind == DtypeKind::kComplex;
  if (complex) return make(DtypeKind::kComplex, std::max<std::size_t>(real, 4) * 2);
  return make(DtypeKind::kFloat, real);
}

Dtype result_type_for_subtract(const Array& a, const Array& b) {
  const bool a_scalar = a.ndim() == 0, b_scalar = b.ndim() == 0;
  if (a_scalar == b_scalar) return promote_types(a.dtype, b.dtype);
  const Array& scalar = a_scalar ? a : b;
  const Array& array = a_scalar ? b : a;
  if (category(scalar.dtype.kind) > category(array.dtype.kind)) return promote_types(a.dtype, b.dtype);
  return promote_types(min_scalar_type(scalar, array.dtype), array.dtype);
}

}  // namespace tipc::align
