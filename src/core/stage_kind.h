#pragma once
// What a stage is: the one list of stage kinds that the settings, the dialects, the planners,
// the run and the reports share. Words become kinds in stage_kind_from_string and kinds
// become words in to_string; nothing else compares a kind as text.
#include <optional>
#include <string_view>

namespace tipc {

// kCheck: an alignment check tipc-run runs on the files other stages produced.
// kConvert: a model conversion (paddle2onnx, paddle_serving_client.convert).
// kService: a server its dependents (clients) talk to (plan::Stage::service); a traced
// runner's program started in the background (`... &`).
// kOther: a program a traced runner started that no script line of the config names
// (a pre-step such as an op install).
// kSetup: what a traced runner prepares before the stages after it (directories, copies,
// downloads, unpacked archives, clones), replayed by `tipc-run setup` (plan/setup_stages.h).
enum class StageKind { kTrain, kEval, kExport, kInfer, kCheck, kConvert, kService, kOther, kSetup };
inline constexpr StageKind kAllStageKinds[] = {StageKind::kTrain,   StageKind::kEval,  StageKind::kExport,
                                               StageKind::kInfer,   StageKind::kCheck, StageKind::kConvert,
                                               StageKind::kService, StageKind::kOther, StageKind::kSetup};

const char* to_string(StageKind kind);                                   // kTrain -> "train"
std::optional<StageKind> stage_kind_from_string(std::string_view text);  // "train" -> kTrain; nullopt if unknown

}  // namespace tipc
