#pragma once
// Strict UTF-8 decoding (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tipc {

struct Utf8Char {
  std::uint32_t code_point = 0;
  std::size_t length = 0;  // bytes
};

// The character starting at text[at], or nullopt where the bytes there are not UTF-8.
std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at);

}  // namespace tipc
