#pragma once
// A closed vocabulary: an enum whose every member is listed in an array and has one word,
// its to_string. Parsing a word and naming the known words in a message go through these
// two templates, so a vocabulary's words are written once, in its to_string.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tipc {

// The member whose word is `text`; nullopt if none is.
template <typename Enum, std::size_t N>
std::optional<Enum> from_word(std::string_view text, const Enum (&all)[N]) {
  for (const Enum member : all) {
    if (text == to_string(member)) return member;
  }
  return std::nullopt;
}

// "train, eval, export": every word, in the array's order, for "(known: ...)".
template <typename Enum, std::size_t N>
std::string known_words(const Enum (&all)[N]) {
  std::string words;
  for (const Enum member : all) {
    if (!words.empty()) words += ", ";
    words += to_string(member);
  }
  return words;
}

}  // namespace tipc
