#pragma once
// Logical line numbers (1-based, non-empty lines) of the train_infer_python layout,
// docs/config-format.md#position-map-l1l52. The meaning of some positions varies by dialect; the names follow PaddleOCR.
namespace tipc::config::pos {

inline constexpr int kModelName = 2;
inline constexpr int kPython = 3;
inline constexpr int kGpuList = 4;
inline constexpr int kUseGpu = 5;
inline constexpr int kAutoCast = 6;
inline constexpr int kEpoch = 7;
inline constexpr int kSaveDir = 8;
inline constexpr int kBatch = 9;
inline constexpr int kPretrained = 10;
inline constexpr int kTrainModelName = 11;
inline constexpr int kTrainInferImgDir = 12;
inline constexpr int kTrainExtra = 13;
inline constexpr int kTrainerList = 15;
inline constexpr int kNormTrain = 16;
inline constexpr int kPactTrain = 17;
inline constexpr int kFpgmTrain = 18;
inline constexpr int kStaticLine = 20;
inline constexpr int kEval = 24;
inline constexpr int kEvalExtra = 25;
inline constexpr int kSaveInferenceDir = 28;
inline constexpr int kCheckpoints = 29;
inline constexpr int kNormExport = 30;
inline constexpr int kKlQuant = 34;
inline constexpr int kExport2 = 35;
inline constexpr int kInferenceDir = 36;
inline constexpr int kInferModel = 37;
inline constexpr int kInferExport = 38;
inline constexpr int kInferQuant = 39;
inline constexpr int kInference = 40;
inline constexpr int kInferUseGpu = 41;
inline constexpr int kEnableMkldnn = 42;
inline constexpr int kCpuThreads = 43;
inline constexpr int kInferBatch = 44;
inline constexpr int kUseTensorrt = 45;
inline constexpr int kPrecision = 46;
inline constexpr int kModelDir = 47;
inline constexpr int kImageDir = 48;
inline constexpr int kSaveLogPath = 49;
inline constexpr int kBenchmark = 50;
inline constexpr int kInferExtra = 51;
inline constexpr int kInferExtra2 = 52;

}  // namespace tipc::config::pos
