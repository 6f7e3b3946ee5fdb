#include "align/checks/diff_log.h"

#include <ctime>

namespace tipc::align {
namespace {

std::string log_line(const std::string& timestamp, const std::string& message) {
  return "[" + timestamp + "] root INFO: " + message + "\n";
}

std::string tabs(int count) { return std::string(static_cast<std::size_t>(count), '\t'); }

std::string check_message(const MethodCheck& check, int depth) {
  return tabs(depth) + std::string(to_string(check.statistic)) +
         " diff: check passed: " + (check.passed ? "True" : "False") + ", value: " + check.value.text();
}

}  // namespace

std::string reprod_log_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y/%m/%d %H:%M:%S", &local);
  return buffer;
}

std::string render_diff_log(const DiffResult& result, const std::string& timestamp) {
  std::string out;
  for (const DiffEntry& entry : result.entries) {
    if (entry.is_group) {
      out += log_line(timestamp, tabs(entry.depth) + entry.key);
      continue;
    }
    out += log_line(timestamp, tabs(entry.depth) + entry.key + ": ");
    for (const MethodCheck& check : entry.checks) out += log_line(timestamp, check_message(check, entry.depth + 1));
  }
  return out + log_line(timestamp, result.passed ? "diff check passed" : "diff check failed");
}

std::string render_diff_stdout(const DiffResult& result, const std::string& timestamp) {
  std::string out;
  for (const std::string& line : result.compare_lines) out += line + "\n";
  return out + render_diff_log(result, timestamp);
}

}  // namespace tipc::align
