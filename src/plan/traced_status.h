#pragma once
// The status lines a traced runner wrote (its results_python.log), taken apart: the
// banner before the first line, each line cut around its word, the log it names, and
// which traced call each line belongs to.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "trace/trace.h"

namespace tipc::plan {

struct TracedStatusLog {
  std::string path;                // relative to the repository root ("" when the runner wrote none)
  std::string banner;              // lines before the first status line ("" = none)
  std::vector<std::string> lines;  // the status lines, in order
};

// The trace's results_python.log (else its first status log).
TracedStatusLog traced_status_log(const trace::Trace& trace);

// The line cut around "Run successfully" / "Run failed"; nullopt when it holds neither.
std::optional<ResultsLogFields::TracedStatus> split_status_line(const std::string& line);

// The word of a status line, "Run successfully" or "Run failed" ("" when it holds neither).
std::string status_word(const std::string& line);

// The text without its ANSI colour codes (`\x1b[33m`).
std::string without_escape_codes(const std::string& text);

// The log a status line names at its end ("" when it names none, as Tpl's lines), without
// the message's trailing punctuation (`- train.log!` names train.log).
std::string status_line_log(const std::string& line);

// For each call's command text, the index of its status line: lines are taken in order,
// and a line belongs to the next call whose first words it contains. A line that no call
// from there on contains is passed over: it reports a command the runner never started
// (one it commented out, or whose redirection failed), and stays unassigned.
std::vector<std::optional<std::size_t>> assign_status_lines(const std::vector<std::string>& lines,
                                                            const std::vector<std::string>& commands);

// For each line of `trace`'s status log, the call whose exit status its word reports, from
// the status probes (trace::trace_each_call_failing, in call order): the one call whose
// failure alone turns the line to "Run failed". nullopt where no single call does (a word
// the runner fixed, the `cat train.log` of D2 in docs/reference-runner.md), or where a probe did not run the same calls or
// write as many lines as the trace (its failure changed the runner's path).
std::vector<std::optional<std::size_t>> status_sources(const trace::Trace& trace,
                                                       const std::vector<Result<trace::Trace>>& probes);

// A status line that no traced call claims (assign_status_lines left it out).
struct UnclaimedLine {
  std::size_t line = 0;                   // index into TracedStatusLog::lines
  std::optional<std::size_t> after_call;  // the call whose line precedes it; nullopt: none does
  // It reports a program the runner ran for real outside the stand-ins (the dy2static
  // runners' `diff -w` of two loss files): a command tipc-run does not run, rather than one
  // the runner never started.
  bool ran_for_real = false;
};

// The lines `claimed` (assign_status_lines' result) leaves out, in order. A line whose
// command was evaluated naming no program the trace records (trace::recorded_programs,
// `interpreter`, a traced call's program) ran for real.
std::vector<UnclaimedLine> unclaimed_status_lines(const TracedStatusLog& log,
                                                  const std::vector<std::optional<std::size_t>>& claimed,
                                                  const trace::Trace& trace, const std::string& interpreter);

}  // namespace tipc::plan
