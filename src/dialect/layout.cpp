#include "dialect/layout.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "config/positions.h"

namespace tipc::dialect {
namespace {
namespace pos = config::pos;

const std::pair<const char*, int> kPositions[] = {{"model_name", pos::kModelName},
                                                  {"python", pos::kPython},
                                                  {"gpu_list", pos::kGpuList},
                                                  {"use_gpu", pos::kUseGpu},
                                                  {"auto_cast", pos::kAutoCast},
                                                  {"epoch", pos::kEpoch},
                                                  {"save_dir", pos::kSaveDir},
                                                  {"batch", pos::kBatch},
                                                  {"pretrained", pos::kPretrained},
                                                  {"train_model_name", pos::kTrainModelName},
                                                  {"train_infer_img_dir", pos::kTrainInferImgDir},
                                                  {"train_extra", pos::kTrainExtra},
                                                  {"trainer", pos::kTrainerList},
                                                  {"norm_train", pos::kNormTrain},
                                                  {"eval", pos::kEval},
                                                  {"eval_extra", pos::kEvalExtra},
                                                  {"save_inference_dir", pos::kSaveInferenceDir},
                                                  {"checkpoints", pos::kCheckpoints},
                                                  {"norm_export", pos::kNormExport},
                                                  {"infer_model", pos::kInferModel},
                                                  {"infer_export", pos::kInferExport},
                                                  {"infer_quant", pos::kInferQuant},
                                                  {"inference", pos::kInference},
                                                  {"infer_use_gpu", pos::kInferUseGpu},
                                                  {"enable_mkldnn", pos::kEnableMkldnn},
                                                  {"cpu_threads", pos::kCpuThreads},
                                                  {"infer_batch", pos::kInferBatch},
                                                  {"use_tensorrt", pos::kUseTensorrt},
                                                  {"precision", pos::kPrecision},
                                                  {"model_dir", pos::kModelDir},
                                                  {"image_dir", pos::kImageDir},
                                                  {"save_log_path", pos::kSaveLogPath},
                                                  {"benchmark", pos::kBenchmark},
                                                  {"infer_extra", pos::kInferExtra}};

}  // namespace

std::optional<int> reference_position(const std::string& name) {
  const auto* it = std::find_if(std::begin(kPositions), std::end(kPositions),
                                [&](const auto& entry) { return name == entry.first; });
  if (it == std::end(kPositions)) return std::nullopt;
  return it->second;
}

std::string layout_names() {
  std::vector<std::string> names;
  for (const auto& [name, line] : kPositions) names.emplace_back(name);
  return fmt::format("{}", fmt::join(names, ", "));
}

config::TrainInferConfig apply_layout(const config::TrainInferConfig& config, const std::map<int, int>& layout) {
  config::TrainInferConfig out;
  out.path = config.path;
  out.physical = config.physical;
  const int size = std::max(pos::kInferExtra2, layout.empty() ? 0 : layout.rbegin()->first);
  out.fields.resize(static_cast<std::size_t>(size));
  out.fields[0] = config.at(1);  // the header
  for (const auto& [position, line] : layout) out.fields[static_cast<std::size_t>(position - 1)] = config.at(line);
  return out;
}

}  // namespace tipc::dialect
