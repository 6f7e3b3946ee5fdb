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
std::optional<Stage::TracedStatus> split_status_line(const std::string& line);

// The log a status line names at its end ("" when it names none, as Tpl's lines).
std::string status_line_log(const std::string& line);

// For each call's command text, the index of its status line: lines are taken in order,
// and a line belongs to the next call whose first words it contains.
std::vector<std::optional<std::size_t>> assign_status_lines(const std::vector<std::string>& lines,
                                                            const std::vector<std::string>& commands);

}  // namespace tipc::plan
