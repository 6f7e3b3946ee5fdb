#pragma once
// Python's text for the numbers reprod_log prints: `'{}'.format(x)` of a numpy scalar,
// which numpy turns into a Python float (repr of a double) or a Python int.
// fmt's "{}" differs (it prints 2 for 2.0), so the repr is built explicitly.
#include <string>
#include <string_view>

namespace tipc::align {

// repr(float(v)): shortest round-trip digits, fixed notation for exponents -4..15,
// scientific otherwise ("1e-05", "1.5e+16"); "nan", "inf", "-inf", "-0.0".
std::string python_float_repr(double v);

// str(int(v)) for any 128-bit integer (diffs of 64-bit integers can exceed 64 bits).
std::string python_int_repr(__int128 v);

// repr(s) of a str given as UTF-8 (encoded surrogates allowed, as pickle writes them):
// quotes, backslash escapes and \xhh / \uhhhh / \Uhhhhhhhh for what Python does not print.
// Printability outside Latin-1 follows the Unicode categories Python treats as unprintable
// (separators, format and private-use characters, surrogates) for the common blocks only.
std::string python_str_repr(std::string_view utf8);

// repr(b) of a bytes object: b'...' with \xhh for bytes outside printable ASCII.
std::string python_bytes_repr(std::string_view bytes);

}  // namespace tipc::align
