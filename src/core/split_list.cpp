#include "core/split_list.h"

namespace tipc {

std::vector<std::string> split_list(const std::string& value, char separator) {
  std::vector<std::string> items;
  if (value.empty()) return items;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = value.find(separator, start);
    if (end == std::string::npos) {
      items.push_back(value.substr(start));
      break;
    }
    items.push_back(value.substr(start, end - start));
    start = end + 1;
    if (start == value.size()) break;  // a trailing separator adds no element
  }
  return items;
}

}  // namespace tipc
