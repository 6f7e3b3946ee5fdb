#pragma once
// What a check stage checks and where its result goes: the typed description the run's
// reports read (report/check_details), so nothing is guessed back from its argv or its log.
// It travels in the plan file and the journal (plan_json.h) like the rest of the stage.
#include <optional>
#include <string>
#include <string_view>

namespace tipc::plan {

// The tipc-run subcommands a project's alignment check runs (config::AlignmentCheckSetting).
enum class CheckKind { kDiff, kCompareResults, kInitCheck };
const char* to_string(CheckKind kind);                                   // "diff", "compare-results", "init-check"
std::optional<CheckKind> check_kind_from_string(std::string_view text);  // nullopt if unknown

struct CheckSpec {
  CheckKind kind = CheckKind::kDiff;
  std::string result_file;  // the JSON file the check writes (--json), a path like Stage::log
  bool operator==(const CheckSpec&) const = default;
};

}  // namespace tipc::plan
