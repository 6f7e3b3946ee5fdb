#pragma once
// What a ground-truth comparison's result looks like outside the program: the text
// `tipc-run compare-results` prints, and its --json file, written by the command and read
// back by the run's reports through the same to_json / compare_results_from_json pair.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "align/checks/ground_truth.h"
#include "core/error.h"

namespace tipc::align {

struct CompareResultsRun {
  std::string format;  // "tipc", "video" or "metric", as given
  CompareRule rule;
  std::map<Precision, std::string> ground_truth_files;
  CompareReport report;
};

// One line per log, the keys that did not pass under it, and the "N passed" summary line.
std::string render_compare_results_text(const CompareResultsRun& run);

nlohmann::ordered_json to_json(const CompareResultsRun& run);
// Errors name `file` and the field. What the file does not keep (the ground truth's and the
// prediction's parsed numbers) is left empty.
Result<CompareResultsRun> compare_results_from_json(const nlohmann::ordered_json& json, const std::string& file);

}  // namespace tipc::align
