#pragma once
// Which alignment check a check stage runs: the tipc-run subcommands a project's settings
// name (config::AlignmentCheckSetting), the plan file records (plan::CheckSpec) and the
// reports show (report::CheckDetails).
#include <optional>
#include <string_view>

namespace tipc {

enum class CheckKind { kDiff, kCompareResults, kInitCheck };
inline constexpr CheckKind kAllCheckKinds[] = {CheckKind::kDiff, CheckKind::kCompareResults, CheckKind::kInitCheck};

const char* to_string(CheckKind kind);                                   // "diff", "compare-results", "init-check"
std::optional<CheckKind> check_kind_from_string(std::string_view text);  // nullopt if unknown

}  // namespace tipc
