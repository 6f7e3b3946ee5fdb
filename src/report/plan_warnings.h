#pragma once
// The plans' warnings as the console shows them: each once per suite, with the number of
// configs it applies to. The configs of a directory suite share a layout and a runner, so the
// same finding at the same line of each of 31 configs is one warning, not 31.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "plan/plan.h"

namespace tipc::report {

struct SuiteWarning {
  Diagnostic first;         // as the first config it applies to has it
  std::size_t configs = 0;  // how many configs have it (at the same line, with the same key and words)
  bool one_file = true;     // every one names the same file (the runner's), not each its own config
};

// In the order first found; a warning a plan gives twice counts that plan once.
std::vector<SuiteWarning> suite_warnings(const std::vector<plan::Plan>& plans);

// "c.txt:16: mode ..." for one config; "c.txt:16: ... (31 configs)" where all name one file;
// "31 configs, e.g. a/c.txt:16: ..." where each names its own.
std::string warning_text(const SuiteWarning& warning);

// Each as `tipc-run: warning: ...` on its own line.
void print_plan_warnings(const std::vector<plan::Plan>& plans, std::ostream& out);

}  // namespace tipc::report
