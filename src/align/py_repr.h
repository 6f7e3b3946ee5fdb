#pragma once
// Python's text for the numbers reprod_log prints: `'{}'.format(x)` of a numpy scalar,
// which numpy turns into a Python float (repr of a double) or a Python int.
// fmt's "{}" differs (it prints 2 for 2.0), so the repr is built explicitly.
#include <string>

namespace tipc::align {

// repr(float(v)): shortest round-trip digits, fixed notation for exponents -4..15,
// scientific otherwise ("1e-05", "1.5e+16"); "nan", "inf", "-inf", "-0.0".
std::string python_float_repr(double v);

// str(int(v)) for any 128-bit integer (diffs of 64-bit integers can exceed 64 bits).
std::string python_int_repr(__int128 v);

}  // namespace tipc::align
