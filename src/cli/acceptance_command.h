#pragma once
// `tipc-run acceptance DIR [--config FILE.yaml] [--compat]`: the five reprod_log checks of a
// paper reproduction (forward, metric, loss, bp_align, train_align) in one go. Writes each
// compared check's `<check>_diff.log` into DIR (reprod_log's log text, replaced atomically),
// prints one summary table and exits 0 when all five pass, 1 when any fails or is missing,
// 2 on bad input (usage, threshold file, unreadable result file, unwritable log).
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "acceptance".
int acceptance_main(const std::vector<std::string>& args);
int acceptance_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
