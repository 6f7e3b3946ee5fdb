#include "plan/traced_status.h"

#include "core/text.h"
#include "trace/stand_ins.h"

#include <algorithm>
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

std::string collapsed(const std::string& text) { return join(whitespace_words(text), " "); }

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

// Whether a word of an evaluated string names a program the trace records (trace::
// recorded_programs, the interpreter, a built binary a call was recorded at):
// `cd deploy && python3.7 predict.py` does, `diff -w a b` does not.
bool names_a_recorded_program(const std::string& command, const trace::Trace& trace, const std::string& interpreter) {
  const auto recorded = trace::recorded_programs(interpreter);
  for (const auto& word : whitespace_words(command)) {
    const std::string name = word.substr(word.rfind('/') + 1);  // /usr/bin/python3 is python3
    if (word == interpreter || std::find(recorded.begin(), recorded.end(), name) != recorded.end() ||
        std::any_of(trace.calls.begin(), trace.calls.end(),
                    [&](const trace::TracedCall& call) { return call.program == word; })) {
      return true;
    }
  }
  return false;
}

// Whether the line reports an evaluated string that starts no program the trace records.
bool reports_a_program_run_for_real(const std::string& line, const trace::Trace& trace,
                                    const std::string& interpreter) {
  const std::string text = collapsed(line);
  for (const auto& eval : trace.evals) {
    const std::string head = command_head(eval);
    if (head.empty() || text.find(head) == std::string::npos) continue;
    return !names_a_recorded_program(eval, trace, interpreter);
  }
  return false;  // never evaluated: the runner only wrote its line (an `# eval $cmd` left out)
}

}  // namespace

std::vector<UnclaimedLine> unclaimed_status_lines(const TracedStatusLog& log,
                                                  const std::vector<std::optional<std::size_t>>& claimed,
                                                  const trace::Trace& trace, const std::string& interpreter) {
  std::vector<std::optional<std::size_t>> owner(log.lines.size());
  for (std::size_t call = 0; call < claimed.size(); ++call) {
    if (claimed[call]) owner[*claimed[call]] = call;
  }
  std::vector<UnclaimedLine> unclaimed;
  std::optional<std::size_t> previous;
  for (std::size_t k = 0; k < log.lines.size(); ++k) {
    if (owner[k]) {
      previous = owner[k];
      continue;
    }
    unclaimed.push_back({k, previous, reports_a_program_run_for_real(log.lines[k], trace, interpreter)});
  }
  return unclaimed;
}

namespace {

bool says_failed(const std::string& line) { return status_word(line) == "Run failed"; }

// Whether a probe started the trace's calls, in order, and wrote as many status lines.
bool probe_follows(const trace::Trace& trace, const trace::Trace& probe, const TracedStatusLog& probed,
                   std::size_t lines) {
  if (probe.calls.size() != trace.calls.size() || probed.lines.size() != lines) return false;
  for (std::size_t i = 0; i < trace.calls.size(); ++i) {
    if (probe.calls[i].program != trace.calls[i].program || probe.calls[i].args != trace.calls[i].args) return false;
  }
  return true;
}

}  // namespace

std::vector<std::optional<std::size_t>> status_sources(const trace::Trace& trace,
                                                       const std::vector<Result<trace::Trace>>& probes) {
  const TracedStatusLog log = traced_status_log(trace);
  std::vector<std::vector<std::size_t>> flipped_by(log.lines.size());
  for (std::size_t call = 0; call < probes.size(); ++call) {
    if (!probes[call]) continue;
    const TracedStatusLog probed = traced_status_log(*probes[call]);
    if (!probe_follows(trace, *probes[call], probed, log.lines.size())) continue;
    for (std::size_t k = 0; k < log.lines.size(); ++k) {
      if (!says_failed(log.lines[k]) && says_failed(probed.lines[k])) flipped_by[k].push_back(call);
    }
  }
  std::vector<std::optional<std::size_t>> sources(log.lines.size());
  for (std::size_t k = 0; k < log.lines.size(); ++k) {
    if (flipped_by[k].size() == 1) sources[k] = flipped_by[k][0];
  }
  return sources;
}

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
    if (split_status_line(line))
      log.lines.push_back(line);
    else if (log.lines.empty())
      log.banner += (log.banner.empty() ? "" : "\n") + line;
  }
  return log;
}

std::optional<ResultsLogFields::TracedStatus> split_status_line(const std::string& line) {
  std::optional<ResultsLogFields::TracedStatus> best;
  std::size_t best_at = std::string::npos;
  for (const char* word : kWords) {
    const std::size_t at = line.find(word);
    if (at == std::string::npos || at >= best_at) continue;
    best_at = at;
    best = ResultsLogFields::TracedStatus{line.substr(0, at), line.substr(at + std::string(word).size())};
  }
  return best;
}

std::string status_word(const std::string& line) {
  const auto cut = split_status_line(line);
  return cut ? line.substr(cut->before.size(), line.size() - cut->before.size() - cut->after.size()) : "";
}

std::string without_escape_codes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      const std::size_t end = text.find('m', i);
      if (end != std::string::npos) {
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string status_line_log(const std::string& line) {
  const std::size_t dash = line.rfind(" - ");
  if (dash == std::string::npos) return "";
  std::string tail = line.substr(dash + 3);
  if (const std::size_t escape = tail.find('\x1b'); escape != std::string::npos) tail.erase(escape);
  const auto words = whitespace_words(tail);
  // The message's own punctuation is no part of the name: `- LOG!`, `- LOG !`, `- LOG.`.
  constexpr const char* kPunctuation = "!?.,;:";
  if (words.empty() || words.size() > 2) return "";
  if (words.size() == 2 && words[1].find_first_not_of(kPunctuation) != std::string::npos) return "";
  return std::string(trim_end(words[0], kPunctuation));
}

std::vector<std::optional<std::size_t>> assign_status_lines(const std::vector<std::string>& lines,
                                                            const std::vector<std::string>& commands) {
  std::vector<std::string> heads, texts;
  for (const auto& command : commands) heads.push_back(command_head(command));
  for (const auto& line : lines) texts.push_back(collapsed(line));
  const auto matches = [&](std::size_t line, std::size_t call) {
    return !heads[call].empty() && texts[line].find(heads[call]) != std::string::npos;
  };
  // last_match[k]: the last call line k could belong to, +1 (0: none). A line that no call
  // from i on could claim is the status of a command the runner never started.
  std::vector<std::size_t> last_match(lines.size(), 0);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    for (std::size_t c = commands.size(); c > 0 && last_match[k] == 0; --c) last_match[k] = matches(k, c - 1) ? c : 0;
  }
  std::vector<std::optional<std::size_t>> assigned(commands.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < commands.size() && next < lines.size(); ++i) {
    for (std::size_t k = next; k < lines.size(); ++k) {
      if (matches(k, i)) {
        assigned[i] = k;
        next = k + 1;
        break;
      }
      if (last_match[k] > i) break;  // line k belongs to a later call: call i has no line
    }
  }
  return assigned;
}

}  // namespace tipc::plan
