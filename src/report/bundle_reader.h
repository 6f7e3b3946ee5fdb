#pragma once
// A run known by its bundle (--bundle FILE.tar.gz, report/bundle.h): its report, read from
// the bundle's reports/report.json in memory (nothing is unpacked), for `tipc-run history
// import` and `tipc-run compare`.
#include <string>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

inline constexpr const char* kBundleReportMember = "reports/report.json";

// Errors name the bundle: not a gzipped tar (or damaged), no reports/report.json in it (the
// bundle of `tipc-run acceptance` holds only logs), or a report.json it cannot read
// (report_json_reader.h).
Result<RunReport> load_bundle_report(const std::string& bundle_path);

}  // namespace tipc::report
