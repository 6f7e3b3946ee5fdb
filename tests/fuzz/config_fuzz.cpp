// libFuzzer target: the TIPC config parser. Bytes -> ConfigText (config/config_text.h)
// -> TrainInferConfig (config/train_infer_config.h) under each family's split rules,
// plus split_key_value and split_list on raw bytes. Checks: no crash or undefined
// behaviour, and the structural promises: the logical lines are exactly the non-empty
// physical lines (less one line-ending CR outside compat), without NUL; every field is
// its line split at the right colon; at(L) reads past the end as empty; split_list loses
// nothing but one trailing separator.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_text.h"
#include "config/key_value.h"
#include "config/train_infer_config.h"
#include "core/split_list.h"
#include "fuzz_check.h"

using namespace tipc::config;

namespace {

// The split rules of the reference families (OCR compat, Det compat) and of default mode.
const SplitRules kRules[] = {
    {ValueSplit::kSecondColon, false, true},
    {ValueSplit::kFirstColon, true, true},
    {ValueSplit::kFirstColon, false, false},
    {ValueSplit::kSecondColon, true, false},
};

std::string join(const std::vector<std::string>& items, char separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

void check_split_list(const std::string& value, char separator) {
  const auto items = tipc::split_list(value, separator);
  if (value.empty()) FUZZ_CHECK(items.empty());
  std::string rejoined = join(items, separator);
  if (!value.empty() && value.back() == separator) rejoined += separator;
  FUZZ_CHECK(rejoined == value);
}

void check_key_value(std::string_view line, const SplitRules& rules) {
  const KeyValue kv = split_key_value(line, rules);
  const std::size_t colon = line.find(':');
  const bool key_swallowed = rules.echo_swallows_options && kv.key.empty();
  const bool value_swallowed = rules.echo_swallows_options && kv.value.empty();
  if (colon == std::string_view::npos) {
    if (!key_swallowed) FUZZ_CHECK(kv.key == line);
    if (!rules.whole_line_value_without_colon) FUZZ_CHECK(kv.value.empty());
    if (rules.whole_line_value_without_colon && !value_swallowed) FUZZ_CHECK(kv.value == line);
    return;
  }
  if (!key_swallowed) FUZZ_CHECK(kv.key == line.substr(0, colon));
  FUZZ_CHECK(kv.key.find(':') == std::string::npos);
  if (!value_swallowed) {
    const std::string_view rest = line.substr(colon + 1);
    if (rules.split == ValueSplit::kFirstColon) {
      FUZZ_CHECK(kv.value == rest);
    } else {
      FUZZ_CHECK(kv.value == rest.substr(0, rest.find(':')));
    }
  }
  if (kv.key.size() >= 2 && rules.echo_swallows_options) FUZZ_CHECK(!is_echo_option_word(kv.key));
}

void check_config(const ConfigText& text, const SplitRules& rules, LineView view) {
  const TrainInferConfig config = split_config(text, rules, view);
  std::vector<ConfigLine> counted;
  for (const auto& line : text.lines) {
    if (line.counts(view)) counted.push_back(line);
  }
  FUZZ_CHECK(config.size() == static_cast<int>(counted.size()));
  FUZZ_CHECK(config.physical.size() == static_cast<std::size_t>(text.physical_line_count));
  for (int l = 1; l <= config.size(); ++l) {
    const Field& field = config.at(l);
    const ConfigLine& line = counted[static_cast<std::size_t>(l - 1)];
    FUZZ_CHECK(field.text == line.read_as(view) && field.physical_line == line.physical_line);
    FUZZ_CHECK(config.physical[static_cast<std::size_t>(line.physical_line - 1)] == field.text);
    const KeyValue kv = split_key_value(field.text, rules);
    FUZZ_CHECK(field.key == kv.key && field.value == kv.value);
    FUZZ_CHECK(&config.key(l) == &field.key && &config.value(l) == &field.value);
    check_split_list(field.value, '|');
  }
  for (const int l : {-1, 0, config.size() + 1, config.size() + 60}) {
    FUZZ_CHECK(config.at(l).physical_line == 0 && config.at(l).text.empty() && config.key(l).empty());
  }
}

void check_text(std::string_view bytes, const TextLimits& limits) {
  const auto text = parse_config_text(bytes, "fuzz.txt", limits);
  if (!text) {
    FUZZ_CHECK(!text.error().diagnostics.empty());
    return;
  }
  FUZZ_CHECK(!text->lines.empty());
  // The lines are exactly the non-empty physical lines (split at \n, after a BOM), in
  // order; each one's text and trailing blanks and CR give back its bytes.
  std::string_view body = bytes;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  std::vector<std::pair<std::string, int>> expected;
  int physical = 0;
  for (std::size_t start = 0; start < body.size();) {
    const std::size_t end = std::min(body.find('\n', start), body.size());
    const std::string_view line = body.substr(start, end - start);
    start = end + 1;
    ++physical;
    if (!line.empty()) expected.emplace_back(std::string(line), physical);
  }
  FUZZ_CHECK(text->physical_line_count == physical);
  FUZZ_CHECK(text->lines.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const ConfigLine& line = text->lines[i];
    FUZZ_CHECK(line.read_as(LineView::kVerbatim) == expected[i].first && line.physical_line == expected[i].second);
    FUZZ_CHECK(!line.text.ends_with(' ') && !line.text.ends_with('\t') && !line.text.ends_with('\r'));
    FUZZ_CHECK(line.trailing.find_first_not_of(" \t\r") == std::string::npos);
    FUZZ_CHECK(line.text.size() <= limits.max_line_bytes);
    FUZZ_CHECK(line.text.find('\0') == std::string::npos);
  }
  for (const SplitRules& rules : kRules) {
    check_config(*text, rules, LineView::kNormalised);
    check_config(*text, rules, LineView::kVerbatim);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_text(bytes, TextLimits{});
  // Tight limits exercise the size checks with inputs libFuzzer can reach.
  check_text(bytes, TextLimits{.max_file_bytes = 2048, .max_line_bytes = 80});
  // split_key_value and split_list take any bytes, not only valid config lines.
  for (const SplitRules& rules : kRules) check_key_value(bytes, rules);
  check_split_list(std::string(bytes), '|');
  check_split_list(std::string(bytes), ',');
  return 0;
}
