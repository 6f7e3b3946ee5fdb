#pragma once
// The report text reprod_log's report() prints and logs, byte for byte modulo timestamps:
//
//   [YYYY/MM/DD HH:MM:SS] root INFO: <key>:
//   [YYYY/MM/DD HH:MM:SS] root INFO: \t<method> diff: check passed: <True|False>, value: <v>
//   [YYYY/MM/DD HH:MM:SS] root INFO: diff check passed|failed
//
// Leaf key lines end in ": " (trailing space); nested-dict key lines have no colon; each
// nesting level adds one TAB. Python logging's handler pile-up across report() calls
// (report_twice.txt) is deliberately not reproduced.
#include <string>

#include "align/checks/diff.h"

namespace tipc::align {

// "2026/11/22 06:24:47": local time, the format reprod_log's logger uses.
std::string reprod_log_timestamp();

// The log lines (what goes to the --log file), every line stamped with `timestamp`.
std::string render_diff_log(const DiffResult& result, const std::string& timestamp);

// What reprod_log shows on stdout: the compare-time lines ("transpose sub_data1", no
// prefix), then the log lines.
std::string render_diff_stdout(const DiffResult& result, const std::string& timestamp);

}  // namespace tipc::align
