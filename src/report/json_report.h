#pragma once
// report.json: the whole report model as JSON, for tools. The schema is versioned
// ("schema_version") and documented in docs/report-schema.md.
#include <ostream>
#include <string>

#include "report/run_report.h"

namespace tipc::report {

std::string render_json_report(const RunReport& report);

// The same text written to `out` stage by stage (report.json of a 1000-stage run is 1.5 MB).
void write_json_report(const RunReport& report, std::ostream& out);

}  // namespace tipc::report
