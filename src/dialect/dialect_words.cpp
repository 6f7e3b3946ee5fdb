#include "dialect/dialect_words.h"

namespace tipc::dialect {

const char* to_string(EpochBatch value) {
  switch (value) {
    case EpochBatch::kModeSelect: return "mode_select";
    case EpochBatch::kClas: return "clas";
    case EpochBatch::kPlain: return "plain";
  }
  return "?";
}

const char* to_string(UseGpuPairing value) {
  switch (value) {
    case UseGpuPairing::kPerPosition: return "per_position";
    case UseGpuPairing::kWhole: return "whole";
    case UseGpuPairing::kWholeFalseForCpu: return "whole_false_for_cpu";
    case UseGpuPairing::kNone: return "none";
  }
  return "?";
}

const char* to_string(WholeInferStyle value) {
  switch (value) {
    case WholeInferStyle::kExportList: return "export_list";
    case WholeInferStyle::kKlQuant: return "kl_quant";
    case WholeInferStyle::kModeList: return "mode_list";
    case WholeInferStyle::kNone: return "none";
  }
  return "?";
}

const char* to_string(InferenceLoop value) {
  switch (value) {
    case InferenceLoop::kBatchSize: return "batch_size";
    case InferenceLoop::kMkldnn: return "mkldnn";
    case InferenceLoop::kPrecision: return "precision";
    case InferenceLoop::kThreads: return "threads";
    case InferenceLoop::kTrt: return "trt";
  }
  return "?";
}

const char* to_string(SkipRule value) {
  switch (value) {
    case SkipRule::kCpuNoMkldnnFp16: return "cpu_no_mkldnn_fp16";
    case SkipRule::kCpuQuantNeedsInt8: return "cpu_quant_needs_int8";
    case SkipRule::kCpuNoMkldnnQuant: return "cpu_no_mkldnn_quant";
    case SkipRule::kCpuNonquantNeedsFp32: return "cpu_nonquant_needs_fp32";
    case SkipRule::kGpuInt8NeedsQuant: return "gpu_int8_needs_quant";
    case SkipRule::kGpuFp16Int8NeedTrt: return "gpu_fp16_int8_need_trt";
    case SkipRule::kGpuQuantNeedsTrtNonInt8: return "gpu_quant_needs_trt_non_int8";
    case SkipRule::kGpuPrecisionTrueNeedsTrt: return "gpu_precision_true_needs_trt";
    case SkipRule::kRunModes: return "run_modes";
  }
  return "?";
}

}  // namespace tipc::dialect
