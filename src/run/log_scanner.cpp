#include "run/log_scanner.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace tipc::run {

std::vector<LogPattern> default_log_patterns(bool train) {
  std::vector<LogPattern> patterns;
  patterns.push_back({"python traceback", std::regex(R"(^Traceback \(most recent call last\):)"), "traceback"});
  if (train) {
    patterns.push_back({"nan or inf loss",
                        std::regex(R"((^|[^a-z])loss\w*\s*[:=]\s*[-+]?(nan|inf|infinity)\b)", std::regex::icase),
                        "loss"});
  }
  return patterns;
}

void LogScanner::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    const std::size_t newline = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, newline);
    if (line_.size() < kMaxLine) line_.append(piece.substr(0, kMaxLine - line_.size()));
    if (newline == std::string_view::npos) return;
    check_line();
    chunk.remove_prefix(newline + 1);
  }
}

void LogScanner::finish() {
  if (!line_.empty()) check_line();
}

bool LogScanner::may_match(const LogPattern& pattern) const {
  if (pattern.literal.empty()) return true;
  const auto it = std::search(line_.begin(), line_.end(), pattern.literal.begin(), pattern.literal.end(),
                              [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it != line_.end();
}

void LogScanner::check_line() {
  ++line_number_;
  found_.resize(patterns_.size(), false);
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  for (std::size_t i = 0; i < patterns_.size() && findings_.size() < kMaxFindings; ++i) {
    if (found_[i] || !may_match(patterns_[i]) || !std::regex_search(line_, patterns_[i].regex)) continue;
    found_[i] = true;
    findings_.push_back(fmt::format("{} at line {}: {}", patterns_[i].name, line_number_, line_.substr(0, 200)));
  }
  line_.clear();
}

}  // namespace tipc::run
