#pragma once
// The acceptance bundle (--bundle FILE.tar.gz): one gzipped tar a reviewer can read
// offline. Members, named relative to the repository root (files outside it under
// "external/<absolute path>"):
//
//   reports/<report file>        the reports in the report directory (report_files()); report.html
//                                rendered again so that its links (relative) point at the
//                                bundle's members
//   the log of every stage that started; each such check's JSON file and the files a diff compared
//   the configs and the settings file the run used
//
// Written to a temp name beside FILE, then renamed; missing files are left out.
#include <string>
#include <vector>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

struct BundleMember {
  std::string name;  // inside the archive
  std::string path;  // on disk; "" for a member written from `text`
  std::string text = {};
};

// What write_bundle puts in, in order, without duplicates.
std::vector<BundleMember> bundle_members(const RunReport& report, const std::string& report_dir);

Result<void> write_bundle(const RunReport& report, const std::string& report_dir, const std::string& bundle_path);

// Any list of members, written the same way (`tipc-run acceptance --bundle`).
Result<void> write_bundle_members(const std::vector<BundleMember>& members, const std::string& bundle_path);

}  // namespace tipc::report
