#pragma once
// numpy 1.x type promotion for `a - b`, so the diff is computed in the dtype numpy used
// (the printed digits depend on it). Covers the numeric dtypes of array.h.
#include "align/io/array.h"

namespace tipc::align {

// np.promote_types(a, b) for numeric dtypes (byte order of the result: native).
Dtype promote_types(const Dtype& a, const Dtype& b);

// np.result_type(a, b) as numpy 1.x computes it for `a - b`: ordinary promotion, except
// that exactly one 0-d operand of a category (bool < int < float < complex) not higher than
// the other's is first reduced to the smallest type holding its value ("value-based casting").
Dtype result_type_for_subtract(const Array& a, const Array& b);

}  // namespace tipc::align
