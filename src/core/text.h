#pragma once
// The small string helpers that parsers and printers of every layer share, so that each
// file does not grow its own lower/trim/split/join. Bytes, not characters: UTF-8 passes
// through untouched. The reference runner's `|` lists are split by split_list.h instead.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tipc {

// What trim drops by default: the blanks around a word on a line, and the line end
// (CR included, for files written on Windows).
inline constexpr std::string_view kBlanks = " \t\r\n";
// std::isspace's bytes in the "C" locale, for text whose readers count \f and \v as blanks too.
inline constexpr std::string_view kWhiteSpace = " \t\n\v\f\r";

// ASCII letters lowered; every other byte (UTF-8 included) kept, whatever the locale.
std::string lower(std::string_view text);

// `text` without the leading and trailing bytes found in `blanks`; "" when only those.
std::string_view trim(std::string_view text, std::string_view blanks = kBlanks);

// `text` without the trailing bytes found in `blanks`: what indents it stays.
std::string_view trim_end(std::string_view text, std::string_view blanks = kBlanks);

// Whether `text` is one or more ASCII digits (a pid, an index, a line number).
bool all_digits(std::string_view text);

// Every piece between separators, empty ones included: n separators give n + 1 pieces,
// so "" is {""} and "a," is {"a", ""}. Callers that drop empty pieces say so themselves.
std::vector<std::string> split(std::string_view text, char separator);

// The items with `separator` between each two: {} is "", {"a", ""} is "a<separator>".
// A span, so that a part of a vector is joined without a copy.
std::string join(std::span<const std::string> items, std::string_view separator);

}  // namespace tipc
