#include "plan/traced_status.h"

#include <sstream>

namespace tipc::plan {
namespace {

const char* const kWords[] = {"Run successfully", "Run failed"};

std::vector<std::string> whitespace_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string collapsed(const std::string& text) {
  std::string out;
  for (const auto& word : whitespace_words(text)) out += (out.empty() ? "" : " ") + word;
  return out;
}

// The first words of a command as its status line shows it: without a leading
// `timeout 5m` (Det) and without redirections.
std::string command_head(const std::string& command) {
  auto words = whitespace_words(command);
  if (words.size() > 2 && words[0] == "timeout") words.erase(words.begin(), words.begin() + 2);
  std::string head;
  for (std::size_t k = 0; k < words.size() && k < 3; ++k) {
    if (words[k].starts_with(">") || words[k].starts_with("2>") || words[k] == "|") break;
    head += (head.empty() ? "" : " ") + words[k];
  }
  return head;
}

}  // namespace

TracedStatusLog traced_status_log(const trace::Trace& trace) {
  TracedStatusLog log;
  const trace::StatusLog* chosen = trace.status_logs.empty() ? nullptr : &trace.status_logs.front();
  for (const auto& candidate : trace.status_logs) {
    if (candidate.path.ends_with("results_python.log")) {
      chosen = &candidate;
      break;
    }
  }
  if (!chosen) return log;
  log.path = chosen->path;
  std::istringstream in(chosen->text);
  for (std::string line; std::getline(in, line);) {
    if (split_status_line(line)) log.lines.push_back(line);
    else if (log.lines.empty()) log.banner += (log.banner.empty() ? "" : "\n") + line;
  }
  return log;
}

std::optional<Stage::TracedStatus> split_status_line(const std::string& line) {
  std::optional<Stage::TracedStatus> best;
  std::size_t best_at = std::string::npos;
  for (const char* word : kWords) {
    const std::size_t at = line.find(word);
    if (at == std::string::npos || at >= best_at) continue;
    best_at = at;
    best = Stage::TracedStatus{line.substr(0, at), line.substr(at + std::string(word).size())};
  }
  return best;
}

std::string status_line_log(const std::string& line) {
  const std::size_t dash = line.rfind(" - ");
  if (dash == std::string::npos) return "";
  std::string tail = line.substr(dash + 3);
  if (const std::size_t escape = tail.find('\x1b'); escape != std::string::npos) tail.erase(escape);
  const auto words = whitespace_words(tail);
  if (words.empty() || words.size() > 2 || (words.size() == 2 && words[1] != "!")) return "";
  return words[0];
}

std::vector<std::optional<std::size_t>> assign_status_lines(const std::vector<std::string>& lines,
                                                            const std::vector<std::string>& commands) {
  std::vector<std::optional<std::size_t>> assigned(commands.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < commands.size() && next < lines.size(); ++i) {
    const std::string head = command_head(commands[i]);
    if (!head.empty() && collapsed(lines[next]).find(head) != std::string::npos) assigned[i] = next++;
  }
  return assigned;
}

}  // namespace tipc::plan
