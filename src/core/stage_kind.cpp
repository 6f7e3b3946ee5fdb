#include "core/stage_kind.h"

#include "core/vocabulary.h"

namespace tipc {

const char* to_string(StageKind kind) {
  switch (kind) {
    case StageKind::kTrain: return "train";
    case StageKind::kEval: return "eval";
    case StageKind::kExport: return "export";
    case StageKind::kInfer: return "infer";
    case StageKind::kCheck: return "check";
    case StageKind::kConvert: return "convert";
    case StageKind::kService: return "service";
    case StageKind::kOther: return "other";
    case StageKind::kSetup: return "setup";
  }
  return "?";
}

std::optional<StageKind> stage_kind_from_string(std::string_view text) { return from_word(text, kAllStageKinds); }

}  // namespace tipc
