#pragma once
// What the acceptance checks look like outside the program: the table `tipc-run acceptance`
// prints and the findings it explains them with. Writing the logs and the bundle is the
// command's job.
#include <string>
#include <vector>

#include "align/checks/acceptance.h"

namespace tipc::align {

// One row per check: its files (relative to `dir`), method, threshold, worst value, verdict.
std::string render_acceptance_table(const std::string& dir, const AcceptanceReport& report);

// Why each check did not pass ("forward FAIL: ..."), and the warnings of those that ran
// ("warning: train_align: ..."), one line each, without a trailing newline.
std::vector<std::string> acceptance_findings(const AcceptanceReport& report);

}  // namespace tipc::align
