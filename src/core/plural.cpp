#include "core/plural.h"

namespace tipc {

std::string plural(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string plural(std::size_t count, std::string_view noun, std::string_view nouns) {
  return std::to_string(count) + " " + std::string(count == 1 ? noun : nouns);
}

}  // namespace tipc
