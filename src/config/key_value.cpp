#include "config/key_value.h"

namespace tipc::config {

bool is_echo_option_word(std::string_view word) {
  if (word.size() < 2 || word[0] != '-') return false;
  return word.find_first_not_of("neE", 1) == std::string_view::npos;
}

KeyValue split_key_value(std::string_view line, const SplitRules& rules) {
  KeyValue kv;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    kv.key = line;
    if (rules.whole_line_value_without_colon) kv.value = line;
  } else {
    kv.key = line.substr(0, colon);
    std::string_view rest = line.substr(colon + 1);
    if (rules.split == ValueSplit::kSecondColon) rest = rest.substr(0, rest.find(':'));
    kv.value = rest;
  }
  if (rules.echo_swallows_options) {
    if (is_echo_option_word(kv.key)) kv.key.clear();
    if (is_echo_option_word(kv.value)) kv.value.clear();
  }
  return kv;
}

}  // namespace tipc::config
