#include "align/io/py_repr.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/utf8.h"

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

// Python's choice: single quotes unless the text holds ' and no ".
char repr_quote(std::string_view text) {
  return text.find('\'') != std::string_view::npos && text.find('"') == std::string_view::npos ? '"' : '\'';
}

// The escapes str and bytes share: the quote, backslash, \t \n \r, other ASCII controls.
std::optional<std::string> ascii_escape(std::uint32_t c, char quote) {
  if (c == static_cast<std::uint32_t>(quote) || c == '\\') return std::string{'\\', static_cast<char>(c)};
  if (c == '\t') return "\\t";
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c < 0x20 || c == 0x7f) return fmt::format("\\x{:02x}", c);
  return std::nullopt;
}

// str.isprintable() for non-ASCII code points: false for C1 controls, separators other than
// the ASCII space, format characters, surrogates and private use (the blocks keys meet).
bool python_printable(std::uint32_t c) {
  if (c <= 0xa0 || c == 0xad || c == 0x1680 || c == 0x180e || c == 0x3000 || c == 0xfeff) return false;
  if ((c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f)) return false;
  if ((c >= 0xd800 && c <= 0xf8ff) || (c >= 0xfff9 && c <= 0xfffb) || c >= 0xf0000) return false;
  return (c & 0xfffe) != 0xfffe;  // the noncharacters U+xxFFFE and U+xxFFFF
}

std::string non_ascii_escape(std::uint32_t c) {
  if (c <= 0xff) return fmt::format("\\x{:02x}", c);
  if (c <= 0xffff) return fmt::format("\\u{:04x}", c);
  return fmt::format("\\U{:08x}", c);
}

// The character at text[at]: a strict UTF-8 one, or a surrogate encoded the way pickle's
// "surrogatepass" writes it (ED A0..BF xx), which strict decoding refuses.
Utf8Char pickle_utf8_char(std::string_view text, std::size_t at) {
  if (const auto decoded = decode_utf8(text, at)) return *decoded;
  const auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(text[at + k])); };
  if (text.size() - at >= 3 && byte(0) == 0xed) return {0xd000u | ((byte(1) & 0x3fu) << 6) | (byte(2) & 0x3fu), 3};
  return {byte(0), 1};  // not UTF-8 at all: shown as the byte it is
}

}  // namespace

std::string python_str_repr(std::string_view utf8) {
  const char quote = repr_quote(utf8);
  std::string out(1, quote);
  for (std::size_t at = 0; at < utf8.size();) {
    const Utf8Char c = pickle_utf8_char(utf8, at);
    if (c.code_point < 0x80) {
      out += ascii_escape(c.code_point, quote).value_or(std::string(1, static_cast<char>(c.code_point)));
    } else {
      out += python_printable(c.code_point) ? std::string(utf8.substr(at, c.length)) : non_ascii_escape(c.code_point);
    }
    at += c.length;
  }
  return out + quote;
}

std::string python_bytes_repr(std::string_view bytes) {
  const char quote = repr_quote(bytes);
  std::string out = std::string("b") + quote;
  for (const char raw : bytes) {
    const auto c = static_cast<std::uint32_t>(static_cast<unsigned char>(raw));
    out += c < 0x80 ? ascii_escape(c, quote).value_or(std::string(1, raw)) : fmt::format("\\x{:02x}", c);
  }
  return out + quote;
}

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
