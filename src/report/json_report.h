#pragma once
// report.json: the whole report model as JSON, for tools. The schema is versioned
// ("schema_version") and documented in docs/report-schema.md.
#include <string>

#include "report/run_report.h"

namespace tipc::report {

std::string render_json_report(const RunReport& report);

}  // namespace tipc::report
