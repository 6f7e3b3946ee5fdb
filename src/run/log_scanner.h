#pragma once
// Checks a stage's output as it streams past: a Python traceback or a nan/inf
// loss fails a stage whose process still exited 0. Memory stays bounded whatever
// the volume: only the current line (capped) is kept.
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace tipc::run {

struct LogPattern {
  std::string name;
  std::regex regex;
  // Lower-case text every matching line contains: a cheap test that spares the
  // (slow) regex on the millions of lines that cannot match. Empty: always run it.
  std::string literal;
};

// Built-in checks: "python traceback", "nan or inf loss" (trains only).
std::vector<LogPattern> default_log_patterns(bool train);

class LogScanner {
 public:
  explicit LogScanner(std::vector<LogPattern> patterns) : patterns_(std::move(patterns)) {}

  void feed(std::string_view chunk);
  void finish();  // checks a last line without a newline
  const std::vector<std::string>& findings() const { return findings_; }

 private:
  void check_line();

  bool may_match(const LogPattern& pattern) const;

  static constexpr std::size_t kMaxLine = 16 << 10;
  static constexpr std::size_t kMaxFindings = 10;
  std::vector<LogPattern> patterns_;
  std::vector<bool> found_;
  std::string line_;
  long line_number_ = 0;
  std::vector<std::string> findings_;
};

}  // namespace tipc::run
