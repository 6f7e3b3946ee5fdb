#include "report/error_line.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <vector>

#include "core/file_tail.h"
#include "core/text.h"
#include "report/report_text.h"
#include "run/stack_dump.h"

namespace tipc::report {
namespace {

// `ValueError: ...`, `paddle.base.core.EnforceNotMet: ...`, `cv2.error: ...`, a bare `KeyboardInterrupt`.
const std::regex& exception_line() {
  static const std::regex pattern(
      R"(^([A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(Error|Exception|Exit|Interrupt|EnforceNotMet|\.error)(:.*)?$)");
  return pattern;
}

// Error or fatal followed by a colon or a bracket, not as part of a name (`top1_error: 0.2`)
// and not as a metric's value (`error: 0.01`).
const std::regex& error_word() {
  static const std::regex pattern(
      R"((^|[^A-Za-z0-9_])(error|Error|ERROR|fatal|Fatal|FATAL)( error| Error)?\s*[:\]](?!\s*[-+]?[0-9.]+([eE][-+]?[0-9]+)?\s*(,|$)))");
  return pattern;
}

const std::regex& crash_line() {
  static const std::regex pattern(
      R"(([Oo]ut of memory|OutOfMemory|(^|\s)Killed(\s|$)|Segmentation fault|Aborted \(core dumped\)))");
  return pattern;
}

// Cheap words one of the patterns needs: most lines of a long log are skipped without a regex.
bool may_say_error(const std::string& line) {
  const std::string lowered = lower(line);
  static constexpr std::array kWords{"error",         "fatal",  "exception", "exit",  "interrupt",
                                     "enforcenotmet", "memory", "killed",    "fault", "abort"};
  return std::any_of(kWords.begin(), kWords.end(),
                     [&](const char* word) { return lowered.find(word) != std::string::npos; });
}

// The log's lines without terminal colour codes and trailing white space.
std::vector<std::string> clean_lines(std::string_view log) {
  static const std::regex colour("\x1b\\[[0-9;]*[A-Za-z]");
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = log.size();
    std::string line = std::regex_replace(std::string(log.substr(start, end - start)), colour, "");
    line.resize(trim_end(line, kWhiteSpace).size());
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

bool is_exception_line(const std::string& line) {
  return !line.empty() && !std::isspace(static_cast<unsigned char>(line.front())) && may_say_error(line) &&
         std::regex_search(line, exception_line());
}

bool is_error_line(const std::string& line) {
  if (!may_say_error(line)) return false;
  return is_exception_line(line) || std::regex_search(line, error_word()) || std::regex_search(line, crash_line());
}

}  // namespace

std::string first_error_line(std::string_view log) {
  // What follows the stack dump's marker is tipc-run's doing: faulthandler's "Fatal Python
  // error: Aborted" answers the SIGABRT that asked for the stacks.
  const std::vector<std::string> lines = clean_lines(log.substr(0, log.find(run::kStackDumpMarker)));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("Traceback (most recent call last):") != std::string::npos) {
      const auto raised = std::find_if(lines.begin() + static_cast<long>(i) + 1, lines.end(), is_exception_line);
      if (raised != lines.end()) return cut_text(*raised, kErrorLineMaxChars);
      continue;  // a traceback cut short: look on
    }
    if (is_error_line(lines[i])) return cut_text(lines[i], kErrorLineMaxChars);
  }
  return "";
}

std::string first_error_line_of_file(const std::string& path, std::size_t window) {
  return first_error_line(file_tail_lines(path, window));
}

}  // namespace tipc::report
