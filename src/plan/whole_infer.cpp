#include "plan/whole_infer.h"

#include <map>

#include <fmt/format.h>

#include "config/positions.h"
#include "core/split_list.h"
#include "plan/native_rules.h"

namespace tipc::plan::detail {

std::string emit(const std::string& key, const std::string& value) {
  if (key == "null") return " ";
  if (value == "null" || value == " " || value.empty()) return " ";
  return key + "=" + value;
}

bool test_differs(const std::string& value, const std::string& other) { return !value.empty() && value != other; }

namespace {

namespace pos = config::pos;

// One plan's whole-inference branch: what it plans from, and the planner it emits through.
class WholeInferPlanner {
 public:
  WholeInferPlanner(const WholeInferInput& in, StageEmitter& emitter)
      : in_(in), emitter_(emitter), rules_(*in.options.rules) {}

  Result<void> run() {
    switch (in_.dialect.whole_infer.style) {
      case dialect::WholeInferStyle::kExportList: return export_list();
      case dialect::WholeInferStyle::kKlQuant: return kl_quant();
      case dialect::WholeInferStyle::kModeList: return mode_list();
      case dialect::WholeInferStyle::kNone: break;
    }
    return {};
  }

 private:
  const std::string& key(int line) const { return in_.config.key(line); }
  const std::string& val(int line) const { return in_.config.value(line); }
  Result<void> export_list();
  Result<void> kl_quant();
  Result<void> mode_list();
  Result<Stage*> export_stage(Vars& vars, const std::string& id);
  Result<void> matrix(Vars& vars, const std::string& prefix, const std::string& export_id, const std::string& quant,
                      const std::string& cwd);

  const WholeInferInput& in_;
  StageEmitter& emitter_;
  const PlanningRules& rules_;
};

Result<Stage*> WholeInferPlanner::export_stage(Vars& vars, const std::string& id) {
  auto exported =
      TRY(emitter_.add_stage(StageKind::kExport, id, in_.dialect.whole_infer.export_stage, vars, in_.options.run_dir));
  exported->env["CUDA_VISIBLE_DEVICES"] = emitter_.devices(std::nullopt);
  return exported;
}

Result<void> WholeInferPlanner::matrix(Vars& vars, const std::string& prefix, const std::string& export_id,
                                       const std::string& quant, const std::string& cwd) {
  const auto& w = in_.dialect.whole_infer;
  auto model_dir = TRY(render(w.model_dir, vars));
  vars["infer_model_dir"] = rules_.planned_path(model_dir);
  vars["infer_data"] = val(w.data_line);
  vars["infer_tag"] = "";
  if (!vars.count("infer_gpu")) vars["infer_gpu"] = "0";
  const std::optional<std::string> device = in_.options.gpu_id ? in_.options.gpu_id : std::optional<std::string>("0");
  return emitter_.inference_matrix(vars, prefix + "/infer", export_id, quant, device, cwd);
}

// OCR and Seg (docs/config-format.md#whole-inference): one export (unless null) and one inference matrix per infer_model.
Result<void> WholeInferPlanner::export_list() {
  const auto models = split_list(val(pos::kInferModel));
  const auto exports = split_list(val(pos::kInferExport));
  const auto quants = split_list(val(pos::kInferQuant));
  if (rules_.requires_one_entry_per_model() && (exports.size() != models.size() || quants.size() != models.size())) {
    return fail(Error::at(in_.config.path, in_.config.at(pos::kInferQuant).physical_line, key(pos::kInferQuant),
                          fmt::format("{} infer models, {} export scripts and {} quant flags: the lists must have "
                                      "one entry per model (reference defect D15)",
                                      models.size(), exports.size(), quants.size())));
  }
  for (std::size_t i = 0; i < models.size(); ++i) {
    Vars vars = in_.base;
    vars["infer_model_index"] = std::to_string(i);
    vars["infer_model"] = models[i];
    const std::size_t slash = models[i].find_last_of('/', models[i].empty() ? 0 : models[i].size() - 2);
    vars["infer_model_parent"] = slash == std::string::npos ? "." : models[i].substr(0, slash);
    const std::string export_script = i < exports.size() ? exports[i] : "";
    const std::string prefix = fmt::format("whole_infer/model_{}", i);
    std::string export_id;
    vars["exported_model"] = models[i];
    if (test_differs(export_script, "null")) {
      vars["export_script"] = export_script;
      auto output = TRY(render(in_.dialect.whole_infer.export_output, vars));
      vars["export_weights_arg"] = emit(key(pos::kCheckpoints), models[i]);
      vars["infer_model_weights_arg"] =
          emit(val(pos::kCheckpoints), models[i]);  // GAN: the value of L29 is the weights key
      vars["save_inference_dir_arg"] = emit(key(pos::kSaveInferenceDir), output);
      vars["exported_model"] = output;
      auto exported = TRY(export_stage(vars, prefix + "/export"));
      exported->model_dir = normalise_path(output);  // the checks of an export read what it wrote
      export_id = exported->id;
    }
    // An empty quant element vanishes from the reference's unquoted argument list,
    // so the gpu argument slides into the quant slot (D15 in docs/reference-runner.md).
    const bool shifted = i >= quants.size() || quants[i].empty();
    vars["infer_gpu"] = shifted ? "" : "0";
    if (auto ok = matrix(vars, prefix, export_id, shifted ? "0" : quants[i], in_.dialect.whole_infer.infer_cwd); !ok) {
      return ok;
    }
  }
  return {};
}

// Clas (docs/config-format.md#whole-inference): only the KL post-training-quant path, when kl_quant is set.
Result<void> WholeInferPlanner::kl_quant() {
  const std::string& kl = val(pos::kKlQuant);
  if (kl == "null" || kl == "False") return {};
  Vars vars = in_.base;
  vars["kl_quant_script"] = kl;
  vars["infer_model"] = val(pos::kInferModel);
  auto exported = TRY(export_stage(vars, "whole_infer/kl_quant/export"));
  const std::string export_id = exported->id;
  return matrix(vars, "whole_infer/kl_quant", export_id, "True", in_.dialect.whole_infer.infer_cwd);
}

// Det (docs/config-format.md#whole-inference): the infer_mode list picks export scripts by name.
Result<void> WholeInferPlanner::mode_list() {
  static const std::map<std::string, int> kExportLine = {
      {"norm", 30}, {"pact", 31}, {"fpgm", 32}, {"distill", 33}, {"kl_quant", 36}};
  const auto quants = split_list(val(pos::kInferQuant));
  std::size_t processed = 0;
  const auto modes = split_list(val(pos::kInferExport));
  for (std::size_t i = 0; i < modes.size(); ++i) {
    const std::string& infer_mode = modes[i];
    if (infer_mode == "null") continue;
    if ((in_.options.mode == "klquant_whole_infer") != (infer_mode == "kl_quant")) continue;
    const auto line = kExportLine.find(infer_mode);
    if (line == kExportLine.end()) {
      Error error =
          Error::at(in_.config.path, in_.config.at(pos::kInferExport).physical_line, key(pos::kInferExport),
                    fmt::format("undefined infer_mode '{}' (norm, pact, fpgm, distill or kl_quant)", infer_mode));
      error.exit_code = rules_.stopping_error_exit_code(error.exit_code);
      return fail(error);
    }
    const std::size_t quant_index = rules_.quant_index(processed, i);
    ++processed;
    Vars vars = in_.base;
    vars["export_script"] = val(line->second);
    vars["export_weights_arg"] = emit(key(pos::kCheckpoints), val(pos::kCheckpoints));
    vars["save_inference_dir_arg"] = emit(key(pos::kSaveInferenceDir), val(pos::kSaveInferenceDir));
    vars["filename_arg"] = emit("filename", val(pos::kModelName));
    vars["save_inference_dir"] = val(pos::kSaveInferenceDir);
    const std::string prefix = fmt::format("whole_infer/{}", infer_mode);
    auto exported = TRY(export_stage(vars, prefix + "/export"));
    const std::string export_id = exported->id;
    const std::string quant = quant_index < quants.size() ? quants[quant_index] : "";
    if (auto ok = matrix(vars, prefix, export_id, quant, in_.dialect.whole_infer.infer_cwd); !ok) return ok;
  }
  return {};
}

}  // namespace

Result<void> plan_whole_infer(const WholeInferInput& input, StageEmitter& emitter) {
  return WholeInferPlanner(input, emitter).run();
}

}  // namespace tipc::plan::detail
