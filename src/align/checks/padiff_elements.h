#pragma once
// The element-wise pass of a PaDiff tensor comparison (padiff_compare.h): every element of
// A against B's under the tolerance test, for the number outside it and the largest
// difference with where it is. Apart from the layer search because it is the one loop over
// every element of every tensor: its speed depends on how the two sides are stored (C or
// Fortran order, native floats or not), which the search never needs to know.
#include <optional>

#include "align/checks/padiff_compare.h"
#include "align/io/array.h"

namespace tipc::align {

// Element by element in C order, whatever order each side is stored in, broadcasting only
// a 0-d side, as PaDiff's strict mode allows; nullopt when the shapes are otherwise
// different. The largest difference is infinite where NaNs or infinities differ; of equal
// largest differences, the first in C order is reported.
std::optional<ElementDiff> element_diff(const Array& a, const Array& b, const Tolerance& tolerance);

}  // namespace tipc::align
