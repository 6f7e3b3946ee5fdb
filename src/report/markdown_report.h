#pragma once
// summary.md: a short Markdown summary for a CI job summary ($GITHUB_STEP_SUMMARY) or a
// pull-request comment: the verdict, the counts per config and mode, the stages that did
// not pass with their reasons, and the alignment checks: each one's failing values against
// their limits, or its value nearest the limit when it passed. Long tables are cut (with
// a count of what was left out); report.json holds everything.
#include <string>

#include "report/run_report.h"

namespace tipc::report {

std::string render_markdown_report(const RunReport& report);

}  // namespace tipc::report
