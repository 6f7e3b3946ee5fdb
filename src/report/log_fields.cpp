#include "report/log_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/text.h"

namespace tipc::report::log_fields {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Parentheses belong to keys for units: `preprocess_time(ms)`.
bool is_key_char(char c) { return is_letter(c) || is_digit(c) || c == '(' || c == ')'; }

// A key inside a path or a dotted name (`warnings.py:109`, `/a/b:3`) is no key.
bool is_inside_name(char c) { return c == '.' || c == '/' || c == '\\' || c == '-'; }

// The key that ends just before `end` (empty if none): a run of key characters starting
// with a letter, so the `11` of a `11:42:07` timestamp is no key.
std::string_view key_before(std::string_view line, std::size_t end) {
  std::size_t start = end;
  while (start > 0 && is_key_char(line[start - 1])) --start;
  if (start > 0 && is_inside_name(line[start - 1])) return {};
  while (start < end && !is_letter(line[start])) ++start;
  return line.substr(start, end - start);
}

// `Key a/b` without a colon, as in `[Epoch 1/10]` and `rank 0/2`; `slash` is the `/`.
std::optional<Field> fraction_field(std::string_view line, std::size_t slash) {
  if (slash + 1 >= line.size() || !is_digit(line[slash + 1])) return std::nullopt;
  std::size_t start = slash;
  while (start > 0 && is_digit(line[start - 1])) --start;
  if (start == slash || start == 0 || line[start - 1] != ' ') return std::nullopt;
  std::size_t key_end = start;
  while (key_end > 0 && line[key_end - 1] == ' ') --key_end;
  const std::string_view key = key_before(line, key_end);
  if (key.empty()) return std::nullopt;
  std::size_t end = slash + 1;
  while (end < line.size() && is_digit(line[end])) ++end;
  return Field{key, line.substr(start, end - start)};
}

// PaddleDetection's `Epoch: [0] [  3/9]`: the step within the epoch is a bracketed fraction
// with no key of its own, right after the epoch's value; it is read as the `iter` it is.
std::optional<Field> step_after_epoch(std::string_view line, const Field& epoch) {
  if (epoch.value.empty() || epoch.value.find('/') != std::string_view::npos || lower(epoch.key) != "epoch") {
    return std::nullopt;
  }
  std::size_t at = static_cast<std::size_t>(epoch.value.data() - line.data()) + epoch.value.size();
  const auto skip_blanks = [&] {
    while (at < line.size() && line[at] == ' ') ++at;
  };
  skip_blanks();
  if (at >= line.size() || line[at] != '[') return std::nullopt;
  ++at;
  skip_blanks();
  const std::size_t start = at;
  while (at < line.size() && (is_digit(line[at]) || line[at] == '/')) ++at;
  const std::string_view step = line.substr(start, at - start);
  skip_blanks();
  if (at >= line.size() || line[at] != ']' || step.find('/') == std::string_view::npos) return std::nullopt;
  return Field{"iter", step};
}

}  // namespace

std::string_view value_after(std::string_view line, std::size_t start) {
  while (start < line.size() && line[start] == ' ') ++start;
  if (start < line.size() && line[start] == '[') {
    const std::size_t close = line.find(']', start);
    return close == std::string_view::npos ? std::string_view() : line.substr(start, close + 1 - start);
  }
  std::size_t end = start;
  while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != ',' && line[end] != ';' &&
         line[end] != ']') {
    ++end;
  }
  return line.substr(start, end - start);
}

std::vector<Field> scan_fields(std::string_view line) {
  std::vector<Field> fields;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ':') {
      const std::string_view key = key_before(line, i);
      if (key.empty()) continue;
      fields.push_back({key, value_after(line, i + 1)});
      if (auto step = step_after_epoch(line, fields.back())) fields.push_back(*step);
    } else if (line[i] == '/') {
      if (auto field = fraction_field(line, i)) fields.push_back(*field);
    }
  }
  return fields;
}

std::optional<double> leading_number(std::string_view text, std::string_view* rest) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value)) return std::nullopt;
  *rest = text.substr(static_cast<std::size_t>(end - text.data()));
  return value;
}

// `0.5`, `0.5s`, `3/12`, `[1/10]`; not `11:42` (a time) and not `nan`.
std::optional<Number> number_of(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  std::string_view rest;
  const auto value = leading_number(text, &rest);
  if (!value || (!rest.empty() && rest.front() == ':')) return std::nullopt;
  Number number{*value, std::nullopt};
  if (!rest.empty() && rest.front() == '/') {
    std::string_view after_total;
    number.total = leading_number(rest.substr(1), &after_total);
    if (!number.total) return std::nullopt;
  }
  return number;
}

// A count or id: whole and in range (a garbage `rank 99999999999/2` is none).
std::optional<int> whole_number(double value) {
  const bool in_range = value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
  if (!in_range || value != std::floor(value)) return std::nullopt;
  return static_cast<int>(value);
}

// Throughput and timing fields are not training curves.
bool is_metric_key(const std::string& key) {
  static constexpr std::array<std::string_view, 5> kFragments = {"cost", "time", "mem", "samples", "elapse"};
  static constexpr std::array<std::string_view, 4> kNames = {"ips", "eta", "batch_size", "speed"};
  for (auto fragment : kFragments) {
    if (key.find(fragment) != std::string::npos) return false;
  }
  return std::find(kNames.begin(), kNames.end(), key) == kNames.end();
}

// Takes the positional fields into `position`; false for anything else.
bool take_position(const std::string& key, const Number& number, Position& position) {
  if (key == "global_step") {
    position.global_step = number.value;
  } else if (key == "iter" || key == "iteration" || key == "step") {
    position.iter = number.value;
    position.iters_per_epoch = number.total;
  } else if (key == "epoch") {
    position.epoch = number.value;
  } else if (key == "rank") {
    position.rank = whole_number(number.value);
  } else {
    return false;
  }
  return true;
}

}  // namespace tipc::report::log_fields
