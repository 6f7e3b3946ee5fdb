#pragma once
// What a diff's result looks like to the run's reports: every compared key with its
// statistics against the one threshold. `tipc-run diff --json` writes it and the reports
// read it back, through this one to_json / diff_summary_from_json pair.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "align/checks/diff.h"
#include "core/error.h"

namespace tipc::align {

struct DiffKeySummary {
  std::string key;  // the dotted path
  bool passed = true;
  std::string reason;                                // why it failed ("" when it passed)
  std::vector<std::size_t> shape;                    // the compared (broadcast) shape
  std::vector<std::pair<Statistic, double>> values;  // in the order of --method; NaN stays NaN
};

struct DiffSummary {
  std::string reference, candidate;  // A and B, as given
  std::string method;
  double threshold = 0;
  bool passed = true;
  std::vector<DiffKeySummary> keys;  // leaves only, report order
  std::vector<std::string> warnings;
};

DiffSummary summarize_diff(const DiffResult& result, const std::string& reference, const std::string& candidate,
                           const DiffOptions& options);

nlohmann::ordered_json to_json(const DiffSummary& summary);
// Errors name `file` and the field.
Result<DiffSummary> diff_summary_from_json(const nlohmann::ordered_json& json, const std::string& file);

}  // namespace tipc::align
