#pragma once
// Means that do not depend on the order of the elements: the same values give the same
// mean whatever their storage layout, strides or the thread that summed them (issue 29).
//
// A float32 sum in memory order, as numpy takes it, depends on that order in its last
// bits, so a weight stored [in, out] by one framework and [out, in] by the other gets two
// means that fail rtol 1e-7 with no element different. Compensated sums (Kahan, Neumaier)
// shrink that error but still depend on the order; an exact sum does not. Every float16,
// float32 and float64 value is an integer multiple of 2^-1074, so their sum is one too:
// the accumulator (a "long accumulator") keeps one int64 per binary exponent, adds each
// value's integer significand to its exponent's bin (a float64 significand in two halves of
// 27 and 26 bits, so a bin takes 2^36 additions before it could overflow) and propagates
// the carries now and then. Integer addition is associative, so the bins, and the one
// rounding at the end, are the same for any order. Integers sum exactly in 128 bits.
// Cost: one add to a bin per element (two for float64), at memory speed on several threads.
#include "align/io/array.h"

namespace tipc::align {

// The exact mean of the elements, or of their absolute values, rounded once to double.
// NaN for an empty array, a NaN element, or +inf and -inf together; an infinity otherwise
// gives itself. Complex arrays give the mean of their real parts, as value_at reads them.
double exact_mean(const Array& array, bool absolute);

}  // namespace tipc::align
