#include "core/stage_result.h"

#include "core/vocabulary.h"

namespace tipc {

const char* to_string(StageResult result) {
  switch (result) {
    case StageResult::kPass: return "PASS";
    case StageResult::kFail: return "FAIL";
    case StageResult::kTimeout: return "TIMEOUT";
    case StageResult::kUnsupported: return "UNSUPPORTED";
    case StageResult::kSkipped: return "SKIPPED";
    case StageResult::kUnresolved: return "UNRESOLVED";
    case StageResult::kFlaky: return "FLAKY";
  }
  return "?";
}

std::optional<StageResult> stage_result_from_string(std::string_view text) { return from_word(text, kAllStageResults); }

}  // namespace tipc
