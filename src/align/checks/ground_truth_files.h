#pragma once
// The files a ground-truth comparison reads (what `tipc-run compare-results` does before
// and around the pure comparison of ground_truth.h): the ground truths a glob matches,
// read and sorted by precision, and every log another glob matches, checked against them.
#include <string>
#include <vector>

#include "align/checks/ground_truth.h"
#include "core/error.h"

namespace tipc::align {

// Regular files matching a shell glob, sorted (glob(3) sorts; Python's glob does not, so
// upstream's order was the directory's).
std::vector<std::string> glob_files(const std::string& pattern);

struct LoadedGroundTruths {
  GroundTruths truths;
  std::vector<std::string> ignored;  // matched, but without a precision in the name
};

// Errors: no file matches, no fp32 file, two files for one precision, a file that does not parse.
Result<LoadedGroundTruths> load_ground_truths(const std::string& gt_glob, ResultFormat format);

// Every log the glob matches, in order: skipped (why_skipped) or checked. Errors: no file
// matches, a log that cannot be read or holds an unparseable prediction.
Result<CompareReport> check_log_files(const std::string& log_glob, const GroundTruths& truths, ResultFormat format,
                                      const CompareRule& rule);

}  // namespace tipc::align
