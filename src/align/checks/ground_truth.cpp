#include "align/checks/ground_truth.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>

#include "align/io/array.h"
#include "core/text.h"

namespace tipc::align {
namespace {

// The keys of a PaddleVideo ground truth: the only lines its compare_results.py reads.
constexpr std::string_view kVideoKeys[] = {"top-1 class", "top-1 score"};

// Physical lines without their line break (a CR before it is dropped); line N is [N - 1].
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

// Long results (detection boxes) are cut in messages.
std::string excerpt(std::string_view text) {
  constexpr std::size_t kMax = 80;
  return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "...";
}

// One number as Python's float() reads it: also nan, inf, infinity in any case, a leading +.
std::optional<double> to_number(std::string_view token) {
  if (token.size() > 1 && token.front() == '+' && token[1] != '-') token.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

// An integer as JSON writes one (and Python's int()): digits after an optional sign.
bool is_integer_token(std::string_view token) {
  if (!token.empty() && (token.front() == '-' || token.front() == '+')) token.remove_prefix(1);
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Recursive descent over a JSON value made of lists and numbers. The shape is learned from
// the first list at each depth; any other length, or a number where a list was, is ragged.
class NumberListParser {
 public:
  explicit NumberListParser(std::string_view text) : text_(text) {}

  Result<NumberArray> parse() {
    if (!value(0)) return fail(Error::plain(error_));
    skip_whitespace();
    if (pos_ != text_.size()) return fail(Error::plain(fmt::format("unexpected text at offset {}", pos_)));
    NumberArray array{lengths_, std::move(values_), std::move(integers_)};
    return array;
  }

 private:
  static constexpr std::size_t kMaxDepth = 64;
  static constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();

  bool value(std::size_t depth) {
    skip_whitespace();
    if (pos_ < text_.size() && text_[pos_] == '[') return list(depth);
    if (leaf_depth_ && *leaf_depth_ != depth) return ragged();
    leaf_depth_ = depth;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_number_char(text_[pos_])) ++pos_;
    const std::string_view token = text_.substr(start, pos_ - start);
    const auto number = to_number(token);
    if (!number) return failed(fmt::format("expected a number or '[' at offset {}", start));
    values_.push_back(*number);
    integers_.push_back(is_integer_token(token));
    return true;
  }

  bool list(std::size_t depth) {
    if (depth >= kMaxDepth) return failed(fmt::format("lists nested deeper than {}", kMaxDepth));
    if (leaf_depth_ && *leaf_depth_ <= depth) return ragged();
    ++pos_;  // '['
    std::size_t count = 0;
    skip_whitespace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
    } else {
      for (;;) {
        if (!value(depth + 1)) return false;
        ++count;
        skip_whitespace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == ']') {
          ++pos_;
          break;
        }
        return failed(fmt::format("expected ',' or ']' at offset {}", pos_));
      }
    }
    if (lengths_.size() <= depth) lengths_.resize(depth + 1, kUnknown);
    if (lengths_[depth] == kUnknown) lengths_[depth] = count;
    return lengths_[depth] == count || ragged();
  }

  static bool is_number_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  }
  void skip_whitespace() {
    while (pos_ < text_.size() && kWhiteSpace.find(text_[pos_]) != std::string_view::npos) ++pos_;
  }
  bool ragged() { return failed("ragged nested lists (rows of different lengths)"); }
  bool failed(std::string message) {
    error_ = std::move(message);
    return false;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<std::size_t> lengths_;  // per depth; kUnknown until a list there closes
  std::optional<std::size_t> leaf_depth_;
  std::vector<double> values_;
  std::vector<bool> integers_;
  std::string error_;
};

std::optional<NumberArray> whitespace_separated_numbers(std::string_view text) {
  NumberArray array{{0}, {}, {}};
  while (!(text = trim(text, kWhiteSpace)).empty()) {
    const auto end = std::min(text.find_first_of(kWhiteSpace), text.size());
    const auto number = to_number(text.substr(0, end));
    if (!number) return std::nullopt;
    array.values.push_back(*number);
    array.integers.push_back(is_integer_token(text.substr(0, end)));
    text.remove_prefix(end);
  }
  array.shape[0] = array.values.size();
  return array;
}

std::string_view last_token(std::string_view line) {
  line = trim(line, kWhiteSpace);
  const auto space = line.find_last_of(kWhiteSpace);
  return space == std::string_view::npos ? line : line.substr(space + 1);
}

// A ground-truth line's key and the text of its result.
struct KeyedText {
  std::string key;
  std::string_view result;
};

Result<std::optional<KeyedText>> tipc_line(std::string_view line, const std::string& file, int number) {
  const auto tabs = std::count(line.begin(), line.end(), '\t');
  if (tabs != 1) {
    return fail(Error::at(file, number, "",
                          fmt::format("expected `<image path>\\t<result>` with exactly one TAB, found {}", tabs)));
  }
  const std::string_view path = line.substr(0, line.find('\t'));
  const std::string_view key = path.substr(path.find_last_of('/') + 1);  // npos + 1 == 0
  if (key.empty()) return fail(Error::at(file, number, "", "the image path has no file name"));
  return KeyedText{std::string(key), line.substr(line.find('\t') + 1)};
}

std::optional<KeyedText> video_line(std::string_view line) {
  for (std::string_view key : kVideoKeys) {
    if (line.find(key) != std::string_view::npos) return KeyedText{std::string(key), last_token(line)};
  }
  return std::nullopt;  // upstream ignores every other line ("Current video file: ...")
}

Result<std::optional<KeyedText>> metric_line(std::string_view line, const std::string& file, int number) {
  const auto colons = std::count(line.begin(), line.end(), ':');
  if (colons != 1) {
    return fail(Error::at(file, number, "",
                          fmt::format("expected `metric_name:value` with exactly one ':', found {}", colons)));
  }
  const auto colon = line.find(':');
  return KeyedText{std::string(trim(line.substr(0, colon), kWhiteSpace)), line.substr(colon + 1)};
}

Result<std::optional<KeyedText>> ground_truth_line(std::string_view line, const std::string& file, int number,
                                                   ResultFormat format) {
  switch (format) {
    case ResultFormat::kTipc: return tipc_line(line, file, number);
    case ResultFormat::kVideo: return video_line(line);
    case ResultFormat::kMetric: return metric_line(line, file, number);
  }
  return std::nullopt;
}

Error unparseable(const std::string& file, int line, const std::string& key, std::string_view text, const Error& why) {
  return Error::at(file, line, key,
                   fmt::format("the result of '{}' is neither a JSON list of numbers ({}) nor whitespace-separated "
                               "numbers: '{}'",
                               key, why.str(), excerpt(trim(text, kWhiteSpace))));
}

Result<NumberArray> parse_result(std::string_view text, const std::string& file, int line, const std::string& key) {
  auto numbers = parse_numbers(text);
  if (!numbers) return fail(unparseable(file, line, key, text, numbers.error()));
  return numbers;
}

// Where a prediction was found in a log, and its text.
struct Found {
  int line = 0;
  std::string_view text;
};

std::optional<Found> find_prediction(const std::vector<std::string_view>& lines, const std::string& key,
                                     ResultFormat format) {
  std::optional<Found> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const int number = static_cast<int>(i + 1);
    switch (format) {
      case ResultFormat::kTipc:  // the first line, the text after the key's last occurrence
        if (const auto at = line.rfind(key); at != std::string_view::npos) {
          return Found{number, line.substr(at + key.size())};
        }
        break;
      case ResultFormat::kVideo:  // the last line, its last whitespace token
        if (line.find(key) != std::string_view::npos) found = Found{number, last_token(line)};
        break;
      case ResultFormat::kMetric:  // the last `key:value` line
        if (const auto colon = line.find(':');
            colon != std::string_view::npos && trim(line.substr(0, colon), kWhiteSpace) == key) {
          found = Found{number, line.substr(colon + 1)};
        }
        break;
    }
  }
  return found;
}

// |gt - pred| where equal values (equal infinities, two NaNs) are 0 apart and a NaN against
// anything else is infinitely far.
double distance(double expected, double predicted) {
  if (expected == predicted || (std::isnan(expected) && std::isnan(predicted))) return 0;
  if (std::isnan(expected) || std::isnan(predicted)) return std::numeric_limits<double>::infinity();
  return std::abs(expected - predicted);
}

// How one element was held: whether it passed, its limit, and whether it was compared at
// all (a score under compare_labels is not: it only has to be finite).
struct ElementVerdict {
  bool close = true;
  double limit = 0;
  bool compared = true;
};

// Holds every element to `verdict(index, gt, pred, |gt - pred|)`. Elements not compared
// count for max_abs_diff and the worst element only when they fail.
template <typename Verdict>
AllcloseResult compare_elements(const NumberArray& expected, const NumberArray& predicted, Verdict verdict) {
  AllcloseResult result;
  if (expected.shape != predicted.shape) {
    result.shapes_match = false;
    return result;
  }
  result.elements = expected.values.size();
  bool worst_mismatches = false;
  for (std::size_t i = 0; i < result.elements; ++i) {
    const double gt = expected.values[i], pred = predicted.values[i];
    const double abs_diff = distance(gt, pred);
    const ElementVerdict element = verdict(i, gt, pred, abs_diff);
    if (!element.close) ++result.mismatched;
    if (!element.compared && element.close) continue;
    result.max_abs_diff = std::max(result.max_abs_diff, abs_diff);
    const bool worse = !result.worst || (!element.close && !worst_mismatches) ||
                       (!element.close == worst_mismatches && abs_diff > result.worst->abs_diff);
    if (worse) {
      result.worst = WorstElement{unravel_index(i, expected.shape), gt, pred, abs_diff, element.limit};
      worst_mismatches = !element.close;
    }
  }
  return result;
}

std::string failure_reason(const AllcloseResult& result, const NumberArray& expected, const NumberArray& predicted) {
  if (!result.shapes_match) {
    return fmt::format("shape {} (gt) vs {} (pred)", shape_text(expected.shape), shape_text(predicted.shape));
  }
  return fmt::format("{} of {} elements differ", result.mismatched, result.elements);
}

Result<KeyComparison> compare_key(const GroundTruthEntry& entry, const std::optional<Found>& found,
                                  const std::string& log_file, const CompareRule& rule) {
  KeyComparison key{entry.key, Verdict::kMissing, "not in the log", entry.line, 0, entry.text, "", std::nullopt};
  if (!found) return key;
  key.log_line = found->line;
  key.pred_text = std::string(trim(found->text, kWhiteSpace));
  const auto predicted = TRY(parse_result(found->text, log_file, found->line, entry.key));
  key.allclose = rule.comparison == Comparison::kLabels ? compare_labels(entry.expected, predicted)
                                                        : allclose(entry.expected, predicted, rule.tolerance);
  key.status = key.allclose->passed() ? Verdict::kPass : Verdict::kFail;
  key.reason = key.allclose->passed() ? "" : failure_reason(*key.allclose, entry.expected, predicted);
  return key;
}

std::string log_failure_reason(const std::vector<KeyComparison>& keys) {
  const auto count = [&](auto predicate) { return std::count_if(keys.begin(), keys.end(), predicate); };
  const auto missing = count([](const KeyComparison& k) { return k.status == Verdict::kMissing; });
  const auto failed = count([](const KeyComparison& k) { return k.status != Verdict::kPass; });
  if (failed == 0) return "";
  std::string reason = fmt::format("{} of {} keys failed", failed, keys.size());
  if (missing > 0) reason += fmt::format(" ({} not in the log)", missing);
  return reason;
}

}  // namespace

const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::kFp32: return "fp32";
    case Precision::kFp16: return "fp16";
    case Precision::kInt8: return "int8";
  }
  return "?";
}

std::optional<Precision> precision_in_name(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  for (Precision p : {Precision::kFp32, Precision::kFp16, Precision::kInt8}) {
    if (name.find(to_string(p)) != std::string::npos) return p;
  }
  return std::nullopt;
}

Result<NumberArray> parse_numbers(std::string_view text) {
  text = trim(text, kWhiteSpace);
  if (text.empty()) return fail(Error::plain("empty result"));
  auto json = NumberListParser(text).parse();
  if (json) return json;
  if (auto words = whitespace_separated_numbers(text)) return *words;
  return json;
}

Result<GroundTruth> parse_ground_truth(std::string_view text, const std::string& file, ResultFormat format) {
  GroundTruth truth{file, {}};
  std::map<std::string, int> line_of_key;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i + 1);
    if (trim(lines[i], kWhiteSpace).empty()) continue;
    const auto keyed = TRY(ground_truth_line(lines[i], file, number, format));
    if (!keyed) continue;
    const auto& [key, result] = *keyed;
    if (const auto [it, added] = line_of_key.emplace(key, number); !added) {
      return fail(Error::at(file, number, key, fmt::format("key '{}' was already given on line {}", key, it->second)));
    }
    auto expected = TRY(parse_result(result, file, number, key));
    truth.entries.push_back({key, number, std::string(trim(result, kWhiteSpace)), std::move(expected)});
  }
  if (truth.entries.empty()) return fail(Error::at(file, 0, "", "holds no results"));
  return truth;
}

Result<GroundTruthFiles> pick_ground_truth_files(const std::vector<std::string>& matched) {
  GroundTruthFiles files;
  for (const std::string& file : matched) {
    const auto precision = precision_in_name(file);
    if (!precision) {
      files.ignored.push_back(file);
      continue;
    }
    if (const auto [it, added] = files.by_precision.emplace(*precision, file); !added) {
      return fail(Error::plain(
          fmt::format("two {} ground-truth files match: {} and {}", to_string(*precision), it->second, file)));
    }
  }
  if (!files.by_precision.contains(Precision::kFp32)) {
    return fail(
        Error::plain(fmt::format("no fp32 ground truth (a file with fp32 in its name) among the files "
                                 "the ground-truth glob matched: {}",
                                 fmt::join(matched, ", "))));
  }
  return files;
}

AllcloseResult allclose(const NumberArray& expected, const NumberArray& predicted, const AllcloseTolerance& tolerance) {
  return compare_elements(expected, predicted, [&](std::size_t, double gt, double pred, double abs_diff) {
    const double limit = tolerance.atol + tolerance.rtol * std::abs(pred);
    // numpy's isclose: non-finite values only match themselves, whatever the tolerance.
    const bool close = abs_diff == 0 || (std::isfinite(gt) && std::isfinite(pred) && abs_diff <= limit);
    return ElementVerdict{close, limit, true};
  });
}

AllcloseResult compare_labels(const NumberArray& expected, const NumberArray& predicted) {
  return compare_elements(expected, predicted, [&](std::size_t i, double, double pred, double abs_diff) {
    if (expected.integers[i]) return ElementVerdict{abs_diff == 0, 0.0, true};
    return ElementVerdict{std::isfinite(pred), std::numeric_limits<double>::infinity(), false};
  });
}

const char* to_string(Comparison comparison) {
  switch (comparison) {
    case Comparison::kAllclose: return "allclose";
    case Comparison::kLabels: return "labels";
  }
  return "?";
}

std::optional<std::string> why_skipped(const std::string& log_file, const GroundTruths& truths) {
  const auto precision = precision_in_name(log_file);
  if (!precision) return "no precision (fp32, fp16 or int8) in the file name";
  if (truths.contains(*precision)) return std::nullopt;
  std::vector<std::string> available;
  for (const auto& [p, truth] : truths) available.push_back(fmt::format("{} {}", to_string(p), truth.file));
  return fmt::format("no {} ground truth (found: {})", to_string(*precision), fmt::join(available, ", "));
}

Result<LogCheck> check_log(const std::string& log_file, std::string_view log_text, const GroundTruths& truths,
                           ResultFormat format, const CompareRule& rule) {
  const Precision precision = *precision_in_name(log_file);
  const GroundTruth& truth = truths.at(precision);
  LogCheck check{log_file, Verdict::kPass, "", precision, truth.file, {}};
  const auto lines = split_lines(log_text);
  for (const GroundTruthEntry& entry : truth.entries) {
    auto key = TRY(compare_key(entry, find_prediction(lines, entry.key, format), log_file, rule));
    check.keys.push_back(std::move(key));
  }
  check.reason = log_failure_reason(check.keys);
  if (!check.reason.empty()) check.status = Verdict::kFail;
  return check;
}

std::size_t CompareReport::count(Verdict status) const {
  return static_cast<std::size_t>(
      std::count_if(logs.begin(), logs.end(), [&](const LogCheck& log) { return log.status == status; }));
}

int CompareReport::exit_code() const {
  return count(Verdict::kFail) == 0 && count(Verdict::kPass) > 0 ? kExitPassed : kExitFailed;
}

}  // namespace tipc::align
