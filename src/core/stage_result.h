#pragma once
// The closed result vocabulary (lit's model): every planned stage ends with exactly one.
// The journal, the reports and the console write these words; run/outcome.h decides which.
#include <optional>
#include <string_view>

namespace tipc {

// FLAKY: failed, then passed when --retries ran it again (pytest-rerunfailures' "rerun"): it
// counts as passed for its dependents and the exit code, and every report names it.
enum class StageResult { kPass, kFail, kTimeout, kUnsupported, kSkipped, kUnresolved, kFlaky };
inline constexpr StageResult kAllStageResults[] = {
    StageResult::kPass,    StageResult::kFail,       StageResult::kTimeout, StageResult::kUnsupported,
    StageResult::kSkipped, StageResult::kUnresolved, StageResult::kFlaky};

const char* to_string(StageResult result);                                   // kPass -> "PASS"
std::optional<StageResult> stage_result_from_string(std::string_view text);  // "PASS" -> kPass; nullopt if unknown

}  // namespace tipc
