#pragma once
// Counting what a rendered report holds.
#include <string>

namespace tipc::test {

// How often `needle` occurs in `text`, overlapping occurrences included.
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace tipc::test
