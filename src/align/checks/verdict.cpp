#include "align/checks/verdict.h"

namespace tipc::align {

namespace {
constexpr Verdict kAllVerdicts[] = {Verdict::kPass, Verdict::kFail, Verdict::kMissing, Verdict::kSkipped,
                                    Verdict::kError};
}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "PASS";
    case Verdict::kFail: return "FAIL";
    case Verdict::kMissing: return "MISSING";
    case Verdict::kSkipped: return "SKIPPED";
    case Verdict::kError: return "ERROR";
  }
  return "?";
}

std::optional<Verdict> verdict_from_string(std::string_view text) {
  for (const Verdict verdict : kAllVerdicts) {
    if (text == to_string(verdict)) return verdict;
  }
  return std::nullopt;
}

}  // namespace tipc::align
