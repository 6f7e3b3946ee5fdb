#include "align/py_repr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace tipc::align {
namespace {

struct ShortestDigits {
  std::string digits;  // d1 d2 ... dn, no decimal point, no sign
  int exponent = 0;    // value = d1.d2...dn x 10^exponent
};

// std::to_chars without a precision gives the shortest round-trip digits (Appendix A).
ShortestDigits shortest_digits(double magnitude) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific).ptr;
  const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  const auto e_pos = text.find('e');
  ShortestDigits out;
  for (const char c : text.substr(0, e_pos)) {
    if (c != '.') out.digits += c;
  }
  out.exponent = std::atoi(std::string(text.substr(e_pos + 1)).c_str());
  return out;
}

std::string fixed_notation(const ShortestDigits& d) {
  const int n = static_cast<int>(d.digits.size());
  if (d.exponent < 0) return "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  std::string integral = d.digits.substr(0, static_cast<std::size_t>(std::min(n, d.exponent + 1)));
  if (n <= d.exponent) integral += std::string(static_cast<std::size_t>(d.exponent + 1 - n), '0');
  const std::string fraction = n > d.exponent + 1 ? d.digits.substr(static_cast<std::size_t>(d.exponent + 1)) : "0";
  return integral + "." + fraction;
}

std::string scientific_notation(const ShortestDigits& d) {
  std::string out = d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  const int magnitude = std::abs(d.exponent);
  out += d.exponent < 0 ? "e-" : "e+";
  if (magnitude < 10) out += '0';
  return out + std::to_string(magnitude);
}

}  // namespace

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0.0) return sign + "0.0";
  const ShortestDigits d = shortest_digits(std::fabs(v));
  const bool fixed = d.exponent >= -4 && d.exponent < 16;
  return sign + (fixed ? fixed_notation(d) : scientific_notation(d));
}

std::string python_int_repr(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // Work on the unsigned magnitude so the most negative value does not overflow.
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

}  // namespace tipc::align
