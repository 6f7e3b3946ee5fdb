#pragma once
// The closed vocabularies of a dialect file's settings (docs/config-format.md, "Dialect
// files"): the file's words become these enums once, when it is loaded, and the planner
// switches on them. to_string gives a member's word back (a loop's word is also the name
// of the template variable that holds its value).
namespace tipc::dialect {

// How L7 (epoch) and L9 (train batch size) are read (`epoch_batch`).
enum class EpochBatch { kModeSelect, kClas, kPlain };
inline constexpr EpochBatch kAllEpochBatches[] = {EpochBatch::kModeSelect, EpochBatch::kClas, EpochBatch::kPlain};

// How L5 (use_gpu) pairs with the gpu elements (`use_gpu_pairing`).
enum class UseGpuPairing { kPerPosition, kWhole, kWholeFalseForCpu, kNone };
inline constexpr UseGpuPairing kAllUseGpuPairings[] = {UseGpuPairing::kPerPosition, UseGpuPairing::kWhole,
                                                       UseGpuPairing::kWholeFalseForCpu, UseGpuPairing::kNone};

// How whole inference plans its exports and inference matrices (`whole_infer.style`).
enum class WholeInferStyle { kExportList, kKlQuant, kModeList, kNone };
inline constexpr WholeInferStyle kAllWholeInferStyles[] = {WholeInferStyle::kExportList, WholeInferStyle::kKlQuant,
                                                           WholeInferStyle::kModeList, WholeInferStyle::kNone};

// An inference loop: one config line whose `|` values an inference branch iterates (`loops`).
enum class InferenceLoop { kBatchSize, kMkldnn, kPrecision, kThreads, kTrt };
inline constexpr InferenceLoop kAllInferenceLoops[] = {InferenceLoop::kBatchSize, InferenceLoop::kMkldnn,
                                                       InferenceLoop::kPrecision, InferenceLoop::kThreads,
                                                       InferenceLoop::kTrt};

// A named inference skip rule (`skip`; docs/config-format.md, "Inference skip rules").
enum class SkipRule {
  kCpuNoMkldnnFp16,
  kCpuQuantNeedsInt8,
  kCpuNoMkldnnQuant,
  kCpuNonquantNeedsFp32,
  kGpuInt8NeedsQuant,
  kGpuFp16Int8NeedTrt,
  kGpuQuantNeedsTrtNonInt8,
  kGpuPrecisionTrueNeedsTrt,
  kRunModes,
};
inline constexpr SkipRule kAllSkipRules[] = {
    SkipRule::kCpuNoMkldnnFp16,         SkipRule::kCpuQuantNeedsInt8,        SkipRule::kCpuNoMkldnnQuant,
    SkipRule::kCpuNonquantNeedsFp32,    SkipRule::kGpuInt8NeedsQuant,        SkipRule::kGpuFp16Int8NeedTrt,
    SkipRule::kGpuQuantNeedsTrtNonInt8, SkipRule::kGpuPrecisionTrueNeedsTrt, SkipRule::kRunModes};

const char* to_string(EpochBatch value);
const char* to_string(UseGpuPairing value);
const char* to_string(WholeInferStyle value);
const char* to_string(InferenceLoop value);
const char* to_string(SkipRule value);

}  // namespace tipc::dialect
