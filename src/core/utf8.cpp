#include "core/utf8.h"

namespace tipc {
namespace {

struct LeadByte {
  std::size_t length;
  std::uint32_t bits;  // the code point bits the lead byte carries
};

std::optional<LeadByte> lead_byte(unsigned char byte) {
  if (byte < 0x80) return LeadByte{1, byte};
  if (byte >= 0xC2 && byte <= 0xDF) return LeadByte{2, byte & 0x1Fu};
  if (byte >= 0xE0 && byte <= 0xEF) return LeadByte{3, byte & 0x0Fu};
  if (byte >= 0xF0 && byte <= 0xF4) return LeadByte{4, byte & 0x07u};
  return std::nullopt;  // a continuation byte, C0/C1 (always overlong) or F5..FF
}

// The smallest code point that needs `length` bytes; anything below is overlong.
std::uint32_t smallest_of_length(std::size_t length) {
  constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  return kSmallest[length];
}

}  // namespace

std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at) {
  if (at >= text.size()) return std::nullopt;
  const auto lead = lead_byte(static_cast<unsigned char>(text[at]));
  if (!lead || at + lead->length > text.size()) return std::nullopt;
  std::uint32_t code_point = lead->bits;
  for (std::size_t k = 1; k < lead->length; ++k) {
    const auto byte = static_cast<unsigned char>(text[at + k]);
    if ((byte & 0xC0) != 0x80) return std::nullopt;
    code_point = (code_point << 6) | (byte & 0x3Fu);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < smallest_of_length(lead->length) || surrogate || code_point > 0x10FFFF) return std::nullopt;
  return Utf8Char{code_point, lead->length};
}

}  // namespace tipc
