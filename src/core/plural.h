#pragma once
// Counted nouns for console and report text: "1 stage", "2 stages", "0 GPUs".
#include <cstddef>
#include <string>
#include <string_view>

namespace tipc {

// `count` and `noun`, the noun with an "s" unless the count is one.
std::string plural(std::size_t count, std::string_view noun);

// The same with an irregular plural form: plural(2, "match", "matches").
std::string plural(std::size_t count, std::string_view noun, std::string_view nouns);

}  // namespace tipc
