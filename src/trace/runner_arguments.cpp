#include "trace/runner_arguments.h"

#include <regex>
#include <sstream>

namespace tipc::trace {
namespace {

// `name() {` or `function name {`: a function's body starts.
bool starts_function(const std::string& line) {
  static const std::regex definition(R"(^\s*(function\s+[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*\s*\(\s*\)))");
  return std::regex_search(line, definition);
}

// The braces a line opens minus those it closes, leaving out `${...}` expansions and comments.
int brace_balance(const std::string& line) {
  int balance = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) break;
    if (line.compare(i, 2, "${") == 0) {
      i = line.find('}', i);
      if (i == std::string::npos) break;
      continue;
    }
    balance += line[i] == '{';
    balance -= line[i] == '}';
  }
  return balance;
}

}  // namespace

bool takes_mode_argument(const std::string& runner_text) {
  static const std::regex second_argument(R"((?:^|[\s;])([A-Za-z_][A-Za-z0-9_]*)=["']?\$\{?2\b)");
  std::istringstream lines(runner_text);
  bool in_function = false;
  int depth = 0;
  bool other = false;
  for (std::string line; std::getline(lines, line);) {
    if (!in_function && starts_function(line)) {
      in_function = true;
      depth = 0;
    }
    if (in_function) {
      depth += brace_balance(line);
      if (depth <= 0 && line.find('}') != std::string::npos) in_function = false;
      continue;
    }
    std::smatch match;
    if (!std::regex_search(line, match, second_argument)) continue;
    if (match[1] == "MODE") return true;
    other = true;
  }
  return !other;
}

}  // namespace tipc::trace
