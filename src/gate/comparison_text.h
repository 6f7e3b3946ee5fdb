#pragma once
// A comparison as text: the console table and the Markdown a pull-request comment carries.
#include <string>
#include <vector>

#include "gate/comparison_rows.h"

namespace tipc::gate {

struct ComparedRuns {
  std::string base, current;  // how they were named: "test_tipc/output", "run 12", "main (run 7)"
};

// A headline, then one line per row that is not UNCHANGED (every row with `all`), grouped
// under "config MODE" lines, columns aligned.
std::string console_comparison(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows, bool all);

// A heading with the verdict, a table of the changed rows, and the unchanged ones folded away.
std::string markdown_comparison(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows);

}  // namespace tipc::gate
