#pragma once
// The five reprod_log comparisons a paper reproduction hands in (docs/cli.md#tipc-run-acceptance):
// forward, metric, loss, bp_align, train_align. Each is compare_info(reference, candidate)
// with diff_method "mean"; thresholds are 1e-6 except train_align (0.0015) and can be
// overridden per check from a YAML file. Finding the files, comparing them and the verdict
// live here; printing the table and writing the logs is the acceptance command's job.
#include <optional>
#include <string>
#include <vector>

#include "align/checks/diff.h"
#include "align/checks/verdict.h"
#include "core/error.h"

namespace tipc::align {

// One of the five checks: its name, the spellings of each side and how it is judged.
struct AcceptanceCheck {
  std::string name;                          // "forward", ..., also the log name "<name>_diff.log"
  std::vector<std::string> reference_names;  // info1 spellings, preferred first
  std::vector<std::string> candidate_names;  // info2 spellings
  std::string method = "mean";
  double threshold = 1e-6;
};

// The five checks in the guide's order, with the guide's file names and thresholds.
std::vector<AcceptanceCheck> default_acceptance_checks();

// Folders searched for the pairs, relative to the reproduction folder, in order.
std::vector<std::string> acceptance_search_folders();

// Reads `acceptance: {forward: 1e-6, ...}` from `yaml_path` and overrides those thresholds.
// Unknown keys, non-numeric or negative values and malformed YAML are errors naming the file
// and line (kExitUsage).
Result<std::vector<AcceptanceCheck>> apply_threshold_file(std::vector<AcceptanceCheck> checks,
                                                          const std::string& yaml_path);

struct PairPaths {
  std::string reference;
  std::string candidate;
};

// The first search folder holding both sides of `check` (any spelling); nullopt if none does.
std::optional<PairPaths> find_pair(const std::string& dir, const AcceptanceCheck& check);

struct CheckOutcome {
  AcceptanceCheck check;
  Verdict status = Verdict::kMissing;  // PASS, FAIL, MISSING or ERROR
  std::optional<PairPaths> files;      // absent when MISSING
  std::optional<double> worst_value;   // largest statistic over all leaves; NaN if any is NaN
  std::optional<DiffResult> diff;      // present when the comparison ran (PASS or FAIL)
  std::string detail;                  // why: names looked for, failing keys, structural error
  std::vector<std::string> warnings;   // e.g. percent vs fraction in train_align
};

struct AcceptanceReport {
  std::vector<CheckOutcome> outcomes;
  bool all_passed() const;
  // kExitPassed when all five pass; kExitUsage when a file could not be read; else kExitFailed.
  int exit_code() const;
};

// Finds and compares every check's pair under `dir`, by `rules`. Never fails as a whole:
// each check carries its own status.
AcceptanceReport run_acceptance(const std::string& dir, const std::vector<AcceptanceCheck>& checks,
                                const DiffRules& rules);

// "forward_torch.npy or forward_pytorch.npy" style listing for MISSING messages.
std::string describe_names(const std::vector<std::string>& names);

}  // namespace tipc::align
