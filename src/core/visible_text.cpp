#include "core/visible_text.h"

#include <fmt/format.h>

#include "core/utf8.h"

namespace tipc {

bool is_control_character(std::uint32_t code_point) {
  if (code_point == '\t' || code_point == '\n') return false;
  return code_point < 0x20 || code_point == 0x7F || (code_point >= 0x80 && code_point <= 0x9F);
}

std::string written_out(std::uint32_t code_point) {
  return code_point < 0x80 ? fmt::format("\\x{:02x}", code_point) : fmt::format("\\u{:04X}", code_point);
}

std::string visible_text(std::string_view text) {
  constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = decode_utf8(text, i);
    if (!c) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (is_control_character(c->code_point))
      out += written_out(c->code_point);
    else
      out.append(text, i, c->length);
    i += c->length;
  }
  return out;
}

}  // namespace tipc
