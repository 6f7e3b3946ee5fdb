#pragma once
// Splitting one config line into key and value, the way each reference helper
// does it (docs/config-format.md#splitting-a-line-into-key-and-value).
#include <string>
#include <string_view>

namespace tipc::config {

enum class ValueSplit {
  kSecondColon,  // OCR family: value is the text between the 1st and the 2nd colon (D3 in docs/reference-runner.md)
  kFirstColon,   // Det, and our default: value is everything after the 1st colon
};

struct KeyValue {
  std::string key;
  std::string value;
};

struct SplitRules {
  ValueSplit split = ValueSplit::kFirstColon;
  // Det's helper returns the whole line as value when there is no colon.
  bool whole_line_value_without_colon = false;
  // The reference prints key and value through `echo`, which swallows option words
  // such as -n or -e (D16 in docs/reference-runner.md). Compat only.
  bool echo_swallows_options = false;
};

KeyValue split_key_value(std::string_view line, const SplitRules& rules);

// True for words `echo` takes as options: "-" followed only by n, e, E.
bool is_echo_option_word(std::string_view word);

}  // namespace tipc::config
