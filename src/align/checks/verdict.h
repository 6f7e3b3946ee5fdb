#pragma once
// The verdict of one align check, one key of it or one log it read: the words the reports
// print and the result files store ("PASS", "FAIL", ...). Each check uses the subset that
// applies to it: acceptance has no SKIPPED, a ground-truth key has no ERROR.
#include <optional>
#include <string_view>

namespace tipc::align {

enum class Verdict { kPass, kFail, kMissing, kSkipped, kError };

const char* to_string(Verdict verdict);                             // "PASS", "FAIL", ...
std::optional<Verdict> verdict_from_string(std::string_view text);  // "PASS" -> kPass; nullopt if unknown

}  // namespace tipc::align
