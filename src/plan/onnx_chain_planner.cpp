#include "plan/onnx_chain_planner.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/split_list.h"
#include "plan/chain_lines.h"

namespace tipc::plan {
namespace {

// Logical lines of a paddle2onnx_params config (the runners' lines[L-1]). After the
// inference script, OCR's layout has a device line (`--use_gpu:True|False`), PaddleSeg's
// and the model tutorials' go on with the model and the image lines at once.
enum OnnxLine {
  kOnnxConverter = 4,
  kOnnxModelDir,
  kOnnxModelFilename,
  kOnnxParamsFilename,
  kOnnxSaveFile,
  kOnnxOpsetVersion,
  kOnnxChecker,
  kOnnxInference,
  kOnnxDeviceOrModel,
};
const std::vector<std::string> kOnnxDeviceKeys = {"*use_gpu*", "*device*"};
const std::vector<std::string> kOnnxAnyKey = {"?*"};

// Where the inference lines are in this config's layout.
struct InferLines {
  bool has_device = false;  // a device line: one inference per value, its flag set
  int model = kOnnxDeviceOrModel;
  int image = kOnnxDeviceOrModel + 1;
};

// The converter's command as the runner builds it: each flag through func_set_params.
Result<Stage> onnx_convert_stage(const ChainLines& lines, const ChainStart& start) {
  std::string converter = TRY(lines.required_script(kOnnxConverter, StageKind::kConvert));
  const std::string log = start.plan.output_dir + "/trans_model.log";
  std::string command = converter;
  const std::pair<OnnxLine, const char*> flags[] = {{kOnnxModelDir, "--model_dir"},
                                                    {kOnnxModelFilename, "--model_filename"},
                                                    {kOnnxParamsFilename, "--params_filename"},
                                                    {kOnnxSaveFile, "--save_file"},
                                                    {kOnnxOpsetVersion, "--opset_version"},
                                                    {kOnnxChecker, "--enable_onnx_checker"}};
  for (const auto& [line, key] : flags) command += " " + set_param(key, TRY(lines.value(line, {key})));
  Stage stage = TRY(stage_from_command("convert/trans_model", StageKind::kConvert,
                                       fmt::format("{} > {} 2>&1 ", command, log), ".", log));
  // A converter that is the config's interpreter running a script follows --python too.
  if (!stage.argv.empty() && stage.argv.front() == TRY(lines.value(3, {"python"}))) stage.argv.front() = start.python;
  return stage;
}

// One inference of the converted model for a device value: True/gpu needs a GPU.
Result<Stage> onnx_infer_stage(const ChainLines& lines, const ChainStart& start, const InferLines& at,
                               const std::string& use_gpu, const std::string& save_file) {
  const bool gpu = use_gpu == "True" || use_gpu == "gpu";
  if (!gpu && use_gpu != "False" && use_gpu != "cpu") {
    return fail(
        lines.error_at(kOnnxDeviceOrModel, fmt::format("'{}': the runner knows True, False, gpu and cpu", use_gpu)));
  }
  const std::string name = gpu ? "paddle2onnx_infer_gpu" : "paddle2onnx_infer_cpu";
  const std::string log = fmt::format("{}/{}{}", start.plan.output_dir, name, kInferLogSuffix);
  const std::string set_gpu =
      at.has_device ? set_param(TRY(lines.key(kOnnxDeviceOrModel, kOnnxDeviceKeys)), use_gpu) : " ";
  const std::string command = fmt::format(
      "{} {} {} {} {} > {} 2>&1 ", start.python, TRY(lines.required_script(kOnnxInference, StageKind::kInfer)), set_gpu,
      set_param(TRY(lines.key(at.image, kOnnxAnyKey)), TRY(lines.value(at.image, kOnnxAnyKey))),
      set_param(TRY(lines.key(at.model, kOnnxAnyKey)), save_file), log);
  Stage stage = TRY(stage_from_command("infer/" + name, StageKind::kInfer, command, ".", log));
  stage.needs.gpus = gpu ? 1 : 0;
  stage.model_dir = std::filesystem::path(save_file).parent_path().string();
  return stage;
}

// The runners pass the converter's --save_file as the model, whatever the model line's
// value: a different value there is a warning.
void warn_unused_model_value(const ChainLines& lines, int model_line, const std::string& named,
                             const std::string& save_file, Plan& plan) {
  if (named.empty() || named == save_file) return;
  const Error note = lines.error_at(
      model_line, fmt::format("the runner infers with the --save_file model '{}', not '{}'", save_file, named));
  plan.warnings.insert(plan.warnings.end(), note.diagnostics.begin(), note.diagnostics.end());
}

}  // namespace

Result<Plan> plan_paddle2onnx(const config::TrainInferConfig& config, const dialect::Chain& chain,
                              const PlanOptions& options) {
  const ChainLines lines(config, chain);
  ChainStart start = TRY(start_chain_plan(lines, options));
  Plan& plan = start.plan;
  plan.stages.push_back(TRY(onnx_convert_stage(lines, start)));
  if (is_null(TRY(lines.script(kOnnxInference, StageKind::kInfer))))
    return std::move(plan);  // the runner converts only
  InferLines at;
  at.has_device = lines.key(kOnnxDeviceOrModel, kOnnxDeviceKeys).has_value();
  if (at.has_device) {
    at.model = kOnnxDeviceOrModel + 1;
    at.image = kOnnxDeviceOrModel + 2;
  }
  const std::string save_file = TRY(lines.value(kOnnxSaveFile, {"--save_file"}));
  warn_unused_model_value(lines, at.model, TRY(lines.value(at.model, kOnnxAnyKey)), save_file, plan);
  const std::string devices = at.has_device ? TRY(lines.value(kOnnxDeviceOrModel, kOnnxDeviceKeys)) : "False";
  for (const std::string& use_gpu : split_list(devices)) {
    Stage stage = TRY(onnx_infer_stage(lines, start, at, use_gpu, save_file));
    for (const Stage& other : plan.stages) {
      if (other.id == stage.id)
        return fail(lines.error_at(kOnnxDeviceOrModel, "two values run one inference: " + stage.id));
    }
    stage.deps = {plan.stages.front().id};
    plan.stages.push_back(std::move(stage));
  }
  return std::move(plan);
}

}  // namespace tipc::plan
