#include "plan/planner.h"

#include <fnmatch.h>

#include <set>

#include <fmt/format.h>

#include "config/positions.h"
#include "core/split_list.h"
#include "dialect/layout.h"
#include "plan/gpu_element.h"
#include "plan/shell_words.h"
#include "plan/template.h"
#include "plan/whole_infer.h"

namespace tipc::plan {
namespace pos = config::pos;
using dialect::Dialect;
using dialect::TrainerRule;

namespace {

using detail::emit;
using detail::test_differs;

bool glob_match(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The reference's `[ ${script} != "null" ]` while IFS is '|' (docs/config-format.md#null-empty-and-the-emission-rule-ekey-value): an empty
// value or one containing '|' breaks the test, which then counts as false.
bool script_runs(const std::string& script) { return !script.empty() && !contains(script, "|") && script != "null"; }

struct TrainerChoice {
  std::string train_script;
  std::string export_script;
  std::string to_static_text;  // for dialects that give it its own slot
  bool quant = false;
  const TrainerRule* rule = nullptr;  // nullptr: the norm fallback
};

// The train branch, and the stages both branches emit (detail::StageEmitter): the
// whole-inference branch is whole_infer.cpp's.
class Planner final : public detail::StageEmitter {
 public:
  Planner(const config::TrainInferConfig& c, const Dialect& d, const PlanOptions& o)
      : cfg_(c), d_(d), opt_(o), rules_(*o.rules), device_(o.initial_cuda_visible_devices) {}

  Result<Plan> run();

  // --- detail::StageEmitter ---
  Result<Stage*> add_stage(StageKind kind, const std::string& id, const dialect::StageTemplate& tpl, Vars& vars,
                           const std::string& cwd) override;
  Result<void> inference_matrix(Vars vars, const std::string& prefix, const std::string& dep, const std::string& quant,
                                const std::optional<std::string>& device, const std::string& cwd) override;
  std::optional<std::string> devices(const std::optional<std::string>& own) const override {
    return rules_.visible_devices(device_, own);
  }

 private:
  // --- helpers over the config ---
  const std::string& key(int line) const { return cfg_.key(line); }
  const std::string& val(int line) const { return cfg_.value(line); }
  std::string mode_value(int line) const;
  std::string epoch_value() const;
  std::string batch_value() const;
  std::pair<std::string, std::string> to_static_trainer() const;
  std::optional<TrainerChoice> choose_trainer(const std::string& trainer) const;
  std::string paired_use_gpu(std::size_t index, const GpuElement& gpu) const;
  Result<void> render_slots(const std::vector<std::pair<std::string, dialect::LookupSlot>>& slots, Vars& vars) const;
  void add_line_variables();

  // --- emitting stages ---
  Result<void> train_branch();
  Result<void> explain_empty_train_plan();
  Result<void> train_iteration(const GpuElement& gpu, std::size_t gpu_index, const std::string& autocast,
                               const std::string& trainer);
  std::string model_suffix(const std::string& autocast) const;
  std::string weights_subdir() const;
  Result<Vars> train_vars(const GpuElement& gpu, std::size_t gpu_index, const std::string& autocast,
                          const std::string& trainer, const TrainerChoice& choice);
  Result<std::string> add_train_stage(const GpuElement& gpu, const std::string& iteration, Vars& vars);
  void follow_train(Stage& stage, const GpuElement& gpu, const std::string& train_id) const;
  Result<void> export_and_infer(const GpuElement& gpu, const std::string& iteration, Vars& vars,
                                const std::string& train_id, const TrainerChoice& choice);
  Result<void> inference_loops(const dialect::InferBranch& branch, bool on_gpu, Vars& vars, std::size_t level,
                               const std::string& prefix, const std::string& dep, const std::string& quant,
                               const std::optional<std::string>& device, const std::string& cwd);
  std::string run_dir_path(const std::string& relative) const;
  void apply_device(const GpuElement& gpu) {
    if (gpu.device) device_ = gpu.device;
  }
  void warn(int line, const std::string& key, const std::string& message) {
    plan_.warnings.push_back({cfg_.path, cfg_.at(line).physical_line, key, message});
  }

  const config::TrainInferConfig& cfg_;
  const Dialect& d_;
  const PlanOptions& opt_;
  const PlanningRules& rules_;
  Plan plan_;
  Vars base_;
  std::optional<std::string> device_;              // the runner's CUDA_VISIBLE_DEVICES
  std::string ips_;                                // the runner's `ips` variable, sticky across gpu elements
  std::pair<std::string, std::string> to_static_;  // the to-static trainer's key and text, found once
  std::string train_model_name_;        // sticky: Seg's checkpoint fallback changes it for the rest of the run
  std::string last_norm_eval_weights_;  // Seg: pact/fpgm trainers reuse it as pretrain
  std::set<std::string> ids_;
};

std::string Planner::mode_value(int line) const {
  for (const auto& entry : split_list(rules_.mode_list_text(cfg_, line))) {
    const auto parts = split_list(entry, '=');
    const std::string name = parts.empty() ? "" : parts[0];
    if (glob_match(opt_.mode, name)) return parts.size() > 1 ? parts[1] : "";
  }
  return "";
}

std::string Planner::epoch_value() const {
  switch (d_.epoch_batch) {
    case dialect::EpochBatch::kPlain: return val(pos::kEpoch);
    case dialect::EpochBatch::kClas:
      // Clas's helper never sees MODE, so nothing matches (docs/config-format.md#modevaluemodevalue-selection).
      return opt_.mode == "benchmark_train" || val(pos::kUseGpu) == "npu" ? "1" : "2";
    case dialect::EpochBatch::kModeSelect: break;
  }
  return mode_value(pos::kEpoch);
}

std::string Planner::batch_value() const {
  if (d_.epoch_batch == dialect::EpochBatch::kModeSelect) return mode_value(pos::kBatch);
  return val(pos::kBatch);
}

// The to-static trainer's name and text (docs/config-format.md#optional-sections-to_static-and-benchmark).
std::pair<std::string, std::string> Planner::to_static_trainer() const {
  using Source = dialect::ToStatic::Source;
  if (d_.to_static.source == Source::kLine) return {key(d_.to_static.line), val(d_.to_static.line)};
  if (d_.to_static.source == Source::kNone) return {"", ""};
  static const std::string kWord = "to_static_train_benchmark_params";
  auto is_word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t n = 0; n < cfg_.physical.size(); ++n) {
    const std::string& line = cfg_.physical[n];
    for (std::size_t at = line.find(kWord); at != std::string::npos; at = line.find(kWord, at + 1)) {
      const bool starts = at == 0 || !is_word_char(line[at - 1]);
      const std::size_t end = at + kWord.size();
      const bool ends = end == line.size() || !is_word_char(line[end]);
      // grep -n gives the 1-based physical line N; the runner then reads logical index N.
      if (starts && ends) return {key(static_cast<int>(n) + 2), val(static_cast<int>(n) + 2)};
    }
  }
  return {key(1), val(1)};  // no header: the index is empty and selects the first line
}

std::optional<TrainerChoice> Planner::choose_trainer(const std::string& trainer) const {
  const auto& [static_key, static_text] = to_static_;
  for (const auto& rule : d_.trainer_rules) {
    bool hit = false;
    switch (rule.match) {
      case TrainerRule::Match::kKeyEquals: hit = trainer == key(rule.train_line); break;
      case TrainerRule::Match::kKeyGlob: hit = glob_match(key(rule.train_line), trainer); break;
      case TrainerRule::Match::kToStatic: hit = trainer == static_key; break;
    }
    if (!hit) continue;
    TrainerChoice choice{val(rule.train_line), val(rule.export_line), "", rule.quant, &rule};
    if (rule.match == TrainerRule::Match::kToStatic) {
      choice.train_script = val(pos::kNormTrain);
      if (d_.to_static.own_slot)
        choice.to_static_text = static_text;
      else
        choice.train_script += d_.to_static.join + static_text;
    }
    return choice;
  }
  if (!d_.unknown_trainer_uses_norm) return std::nullopt;
  return TrainerChoice{val(pos::kNormTrain), val(pos::kNormExport), "", false, nullptr};
}

std::string Planner::paired_use_gpu(std::size_t index, const GpuElement& gpu) const {
  const std::string& value = val(pos::kUseGpu);
  switch (d_.use_gpu_pairing) {
    case dialect::UseGpuPairing::kWhole: return value;
    case dialect::UseGpuPairing::kWholeFalseForCpu: return gpu.text == "-1" ? "False" : value;
    case dialect::UseGpuPairing::kNone: return "";
    case dialect::UseGpuPairing::kPerPosition: break;
  }
  const auto values = split_list(value);
  return index < values.size() ? values[index] : "";
}

// Each slot picks its text by the value of the variable it names (autocast, mode, key_15, ...).
Result<void> Planner::render_slots(const std::vector<std::pair<std::string, dialect::LookupSlot>>& slots,
                                   Vars& vars) const {
  for (const auto& [name, slot] : slots) {
    const auto selector = vars.find(slot.by);
    if (selector == vars.end()) {
      return fail(
          Error::at(d_.source_file, 0, name, fmt::format("slot '{}': no variable '{}' to select by", name, slot.by)));
    }
    if (slot.replace) {
      std::string text = selector->second;
      if (const auto at = text.find(slot.replace->first); at != std::string::npos && !slot.replace->first.empty()) {
        text.replace(at, slot.replace->first.size(), slot.replace->second);
      }
      vars[name] = text;
      continue;
    }
    const auto chosen = std::find_if(slot.cases.begin(), slot.cases.end(),
                                     [&](const auto& c) { return glob_match(c.first, selector->second); });
    vars[name] = TRY(render(chosen == slot.cases.end() ? slot.fallback : chosen->second, vars));
  }
  return {};
}

// {key_N}, {value_N} and {arg_N} (= E(key, value)) for every logical line: the runners
// that read a line no named variable covers (PaddleVideo's L12, the tutorial layout).
void Planner::add_line_variables() {
  for (int line = 1; line <= std::max(cfg_.size(), pos::kInferExtra2); ++line) {
    base_[fmt::format("key_{}", line)] = key(line);
    base_[fmt::format("value_{}", line)] = val(line);
    base_[fmt::format("arg_{}", line)] = emit(key(line), val(line));
  }
}

Result<Stage*> Planner::add_stage(StageKind kind, const std::string& id, const dialect::StageTemplate& tpl, Vars& vars,
                                  const std::string& cwd) {
  Stage stage;
  stage.kind = kind;
  stage.id = id;
  for (int n = 2; ids_.count(stage.id); ++n) stage.id = fmt::format("{}#{}", id, n);
  ids_.insert(stage.id);
  auto log = TRY(render(tpl.log, vars));
  stage.log = rules_.planned_path(log);
  vars["stage_log"] = stage.log;
  stage.results_log.command = TRY(render(tpl.command, vars));
  vars["command"] = stage.results_log.command;
  stage.results_log.shell_text = TRY(render(tpl.evaluated, vars));
  stage.results_log.status_log = TRY(render(tpl.status_log, vars));
  if (!tpl.trainer_log.empty()) {
    stage.results_log.trainer_log = TRY(render(tpl.trainer_log, vars));
  }
  auto words = TRY(split_shell_words(stage.results_log.command, rules_.command_words()));
  stage.argv = std::move(words.words);
  if (!words.shell_constructs.empty()) {
    plan_.warnings.push_back(
        {cfg_.path, 0, "",
         fmt::format("stage {}: the command contains {}; tipc-run passes them literally{}", stage.id,
                     fmt::join(words.shell_constructs, ", "), rules_.shell_constructs_note())});
  }
  if (opt_.python && !stage.argv.empty()) stage.argv[0] = *opt_.python;
  stage.cwd = cwd;
  const auto model_dir = vars.find(kind == StageKind::kInfer ? "infer_model_dir" : "save_log");
  if (model_dir != vars.end()) stage.model_dir = normalise_path(model_dir->second);
  plan_.stages.push_back(std::move(stage));
  return &plan_.stages.back();
}

Result<Plan> Planner::run() {
  plan_.config_path = cfg_.path;
  plan_.dialect = d_.name;
  plan_.mode = opt_.mode;
  plan_.compat = rules_.reproduces_reference();
  plan_.run_dir = opt_.run_dir;
  plan_.model_name = val(pos::kModelName);
  plan_.status_line = d_.status_line;
  std::string model_pp = plan_.model_name;  // Video names its weights after the model, PP- spelled pp
  for (std::size_t at = model_pp.find("PP-"); at != std::string::npos; at = model_pp.find("PP-", at)) {
    model_pp.replace(at, 3, "pp");
  }
  base_ = {{"python", val(pos::kPython)},
           {"model_name", plan_.model_name},
           {"mode", opt_.mode},
           {"repo_root", opt_.repo_root},
           {"model_name_pp_lowered", model_pp},
           {"save_log_path_arg", emit(key(pos::kSaveLogPath), "")},
           {"save_inference_dir_key", key(pos::kSaveInferenceDir)}};
  add_line_variables();
  plan_.output_dir = TRY(render(d_.log_dir, base_));
  base_["log_dir"] = plan_.output_dir;
  plan_.results_log = plan_.output_dir + "/results_python.log";
  if (!d_.banner.empty()) {
    plan_.banner = TRY(render(d_.banner, base_));
  }
  train_model_name_ = val(pos::kTrainModelName);
  to_static_ = to_static_trainer();
  const auto& whole = d_.whole_infer.modes;
  const bool whole_infer = std::find(whole.begin(), whole.end(), opt_.mode) != whole.end();
  if (whole_infer) {
    if (opt_.gpu_id && !opt_.gpu_id->empty()) device_ = *opt_.gpu_id;  // the runner's third argument sets it
    TRY(detail::plan_whole_infer({cfg_, d_, opt_, base_}, *this));
  } else {
    TRY(train_branch());
    TRY(explain_empty_train_plan());
  }
  return std::move(plan_);
}

// A config that names a trainer but plans nothing is a silent wrong plan: say why.
// `trainer:null` (or an empty list) is the reference's deliberate "train nothing".
// The reference's rules reproduce the empty plan and only warn.
Result<void> Planner::explain_empty_train_plan() {
  if (!plan_.stages.empty()) return {};
  const auto trainers = split_list(val(pos::kTrainerList));
  if (std::all_of(trainers.begin(), trainers.end(), [](const std::string& t) { return t.empty() || t == "null"; })) {
    return {};
  }
  int line = pos::kTrainerList;
  std::string why =
      fmt::format("every trainer of '{}' has the script null (or no trainer line matches it)", val(pos::kTrainerList));
  if (split_list(val(pos::kGpuList)).empty()) {
    line = pos::kGpuList;
    why = "the gpu list is empty";
  } else if (!d_.autocast && split_list(val(pos::kAutoCast)).empty()) {
    line = pos::kAutoCast;
    why = "the autocast list is empty";
  }
  Diagnostic problem{cfg_.path, cfg_.at(line).physical_line, key(line),
                     fmt::format("the config names trainer '{}' but plans no stage: {}", val(pos::kTrainerList), why)};
  return rules_.empty_train_plan(problem, plan_);
}

Result<void> Planner::train_branch() {
  const auto gpus = split_list(val(pos::kGpuList));
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    auto parsed = rules_.gpu_element(gpus[i], ips_, d_);
    if (!parsed) {
      auto error = parsed.error();
      error.diagnostics[0].file = cfg_.path;
      error.diagnostics[0].line = cfg_.at(pos::kGpuList).physical_line;
      error.diagnostics[0].key = key(pos::kGpuList);
      return fail(error);
    }
    GpuElement gpu = *parsed;
    if (d_.devices.set_on_gpu_select && gpu.sets_device_on_select) device_ = gpu.device;
    // A dialect with its own autocast rule runs each trainer once, with the value it picks.
    const auto autocasts = d_.autocast ? std::vector<std::string>{""} : split_list(val(pos::kAutoCast));
    for (const auto& listed : autocasts) {
      for (const auto& trainer : split_list(val(pos::kTrainerList))) {
        Vars picked{{"trainer", trainer}, {"autocast", listed}};
        if (d_.autocast) {
          if (auto ok = render_slots({{"autocast", *d_.autocast}}, picked); !ok) return ok;
        }
        if (auto ok = train_iteration(gpu, i, picked["autocast"], trainer); !ok) return ok;
      }
    }
  }
  return {};
}

// The model-name suffix the dialect's rules add for this model and autocast value.
std::string Planner::model_suffix(const std::string& autocast) const {
  std::string suffix;
  for (const auto& rule : d_.model_suffix) {
    const bool model_hit = std::any_of(rule.model_globs.begin(), rule.model_globs.end(),
                                       [&](const std::string& g) { return glob_match(g, plan_.model_name); });
    const bool ac_hit = std::find(rule.autocast.begin(), rule.autocast.end(), autocast) != rule.autocast.end();
    if (model_hit && ac_hit) suffix += rule.text;
  }
  return suffix;
}

std::string Planner::weights_subdir() const {
  for (const auto& rule : d_.weights_subdir) {
    if (glob_match(rule.glob, plan_.model_name)) return rule.value;
  }
  return plan_.model_name;
}

// The variables of one (gpu, autocast, trainer) iteration, up to its train stage.
Result<Vars> Planner::train_vars(const GpuElement& gpu, std::size_t gpu_index, const std::string& autocast,
                                 const std::string& trainer, const TrainerChoice& choice) {
  Vars vars = base_;
  vars["trainer"] = trainer;
  vars["gpus"] = gpu.gpus;
  vars["ips"] = gpu.ips.value_or("");
  vars["autocast"] = autocast;
  vars["nodes"] = std::to_string(gpu.nodes.value_or(1));
  vars["train_model_name"] = train_model_name_;
  vars["save_log"] = TRY(render(gpu.nodes ? d_.save_log_multi_node : d_.save_log, vars));
  const std::string epoch = epoch_value();
  vars["train_script"] = choice.train_script;
  vars["use_gpu_arg"] = emit(key(pos::kUseGpu), paired_use_gpu(gpu_index, gpu));
  vars["save_dir_arg"] = emit(key(pos::kSaveDir), vars["save_log"]);
  vars["epoch_arg"] = emit(key(pos::kEpoch), epoch);
  vars["epoch_value"] = epoch;
  vars["batch_arg"] = emit(key(pos::kBatch), batch_value());
  vars["pretrained_arg"] = emit(key(pos::kPretrained), val(pos::kPretrained));
  vars["train_extra_arg"] = emit(key(pos::kTrainExtra), val(pos::kTrainExtra));
  vars["autocast_arg"] = emit(key(pos::kAutoCast), autocast);
  vars["filename_arg"] = emit("filename", plan_.model_name);
  vars["to_static_text"] = choice.to_static_text;
  TRY(render_slots(d_.lookup_slots, vars));
  vars["model_suffix"] = model_suffix(autocast);
  // Seg's pact and fpgm trainers start from the weights the norm trainer's eval read.
  const bool pact_or_fpgm = choice.rule && choice.rule->match == TrainerRule::Match::kKeyEquals &&
                            (choice.rule->train_line == pos::kPactTrain || choice.rule->train_line == pos::kFpgmTrain);
  vars["pretrained_or_norm_weights_arg"] =
      d_.pact_pretrain_from_norm && pact_or_fpgm && !gpu.nodes ? last_norm_eval_weights_ : vars["pretrained_arg"];
  const dialect::Launcher& launcher = opt_.launcher.value_or(d_.launcher);
  vars["gpu_count"] = std::to_string(gpu.gpu_count);
  vars["master_addr"] = gpu.ips ? gpu.ips->substr(0, gpu.ips->find(',')) : "127.0.0.1";
  vars["launcher_args"] =
      TRY(render(gpu.launch == GpuElement::Launch::kMultiNode ? launcher.multi_node : launcher.multi, vars));
  vars["weights_subdir"] = weights_subdir();
  return vars;
}

// The train stage of an iteration; its id.
Result<std::string> Planner::add_train_stage(const GpuElement& gpu, const std::string& iteration, Vars& vars) {
  const dialect::Launcher& launcher = opt_.launcher.value_or(d_.launcher);
  const auto& train_tpl = gpu.launch == GpuElement::Launch::kSingle  ? d_.train_single
                          : gpu.launch == GpuElement::Launch::kMulti ? d_.train_multi
                                                                     : d_.train_multi_node;
  if (d_.devices.unset_before_train) device_.reset();
  auto train = TRY(add_stage(StageKind::kTrain, iteration + "/train", train_tpl, vars, opt_.run_dir));
  train->needs = {gpu.gpu_count, gpu.nodes.value_or(1)};
  train->benchmark = opt_.mode == "benchmark_train";  // its figures are the point: it runs alone
  train->train_setting = TrainSetting{batch_value(), vars.at("autocast")};
  if (gpu.nodes) train->hosts = gpu.ips.value_or("");
  if (gpu.launch != GpuElement::Launch::kSingle) {
    train->launcher = launcher.name;
    if (launcher.spawns_ranks) train->processes = gpu.gpu_count;
  } else if (const int ranks = rules_.cpu_train_processes(opt_.cpu_train_processes);
             gpu.cpu && launcher.spawns_ranks && ranks > 1) {
    train->launcher = launcher.name;  // data-parallel on CPU (gloo)
    train->processes = ranks;
  }
  for (const auto& [name, value] : d_.train_env) train->env[name] = value;
  train->env["CUDA_VISIBLE_DEVICES"] = devices(gpu.cpu ? std::nullopt : std::optional<std::string>(gpu.gpus));
  return train->id;
}

// A stage after the train of its iteration: it depends on it and runs on the iteration's first GPU.
void Planner::follow_train(Stage& stage, const GpuElement& gpu, const std::string& train_id) const {
  stage.deps = {train_id};
  stage.needs.gpus = gpu.cpu ? 0 : 1;
  const auto one_gpu = gpu.cpu ? std::nullopt : std::optional<std::string>(gpu.gpus.substr(0, gpu.gpus.find(',')));
  stage.env["CUDA_VISIBLE_DEVICES"] = devices(one_gpu);
}

Result<void> Planner::train_iteration(const GpuElement& gpu, std::size_t gpu_index, const std::string& autocast,
                                      const std::string& trainer) {
  const auto choice = choose_trainer(trainer);
  if (!choice || choice->train_script == "null") return {};
  if (rules_.rejects_empty_script() && choice->train_script.empty()) {
    return fail(Error::at(cfg_.path, cfg_.at(pos::kTrainerList).physical_line, key(pos::kTrainerList),
                          fmt::format("trainer '{}' has an empty script (write null to skip it)", trainer)));
  }
  Vars vars = TRY(train_vars(gpu, gpu_index, autocast, trainer, *choice));
  const std::string iteration = fmt::format("{}/gpus_{}/autocast_{}", trainer, gpu.gpus, autocast);
  const std::string train_id = TRY(add_train_stage(gpu, iteration, vars));
  if (d_.checkpoint_fallback && rules_.takes_checkpoint_fallback()) {
    // The reference checks for the checkpoint on disk; a plan sees no training output (docs/reference-runner.md#command-shapes).
    train_model_name_ = TRY(render(*d_.checkpoint_fallback, vars));
    vars["train_model_name"] = train_model_name_;
  }
  vars["weights"] = TRY(render(d_.weights, vars));
  vars["eval_weights_arg"] = emit(key(d_.eval_weights_key_line), vars["weights"]);
  if (!choice->rule) last_norm_eval_weights_ = vars["eval_weights_arg"];

  const std::string& eval_script = val(pos::kEval);
  if (script_runs(eval_script)) {
    if (d_.devices.apply_before_eval) apply_device(gpu);
    vars["eval_script"] = eval_script;
    vars["eval_extra_arg"] = emit(key(pos::kEvalExtra), val(pos::kEvalExtra));
    auto eval = TRY(add_stage(StageKind::kEval, iteration + "/eval", d_.eval, vars, opt_.run_dir));
    follow_train(*eval, gpu, train_id);
  }
  if (script_runs(choice->export_script)) {
    TRY(export_and_infer(gpu, iteration, vars, train_id, *choice));
  }
  if (d_.devices.unset_after_trainer) device_.reset();
  return {};
}

// The exports of an iteration (and its ONNX export where the config asks for one), then the
// inference matrix over what the export wrote.
Result<void> Planner::export_and_infer(const GpuElement& gpu, const std::string& iteration, Vars& vars,
                                       const std::string& train_id, const TrainerChoice& choice) {
  const bool blank_weights = rules_.exports_without_weights() &&
                             std::any_of(d_.export_without_weights.begin(), d_.export_without_weights.end(),
                                         [&](const std::string& g) { return glob_match(g, plan_.model_name); });
  vars["export_script"] = choice.export_script;
  vars["export_weights_arg"] = blank_weights ? "" : emit(key(pos::kCheckpoints), vars["weights"]);
  vars["save_inference_dir_arg"] = emit(key(pos::kSaveInferenceDir), vars["save_log"]);
  std::vector<const dialect::StageTemplate*> exports;
  if (!d_.onnx_export_key.empty() && key(pos::kExport2) == d_.onnx_export_key) exports.push_back(&d_.onnx_export);
  exports.push_back(&d_.export_);
  std::string export_id;
  for (const auto* tpl : exports) {
    const std::string id = iteration + (tpl == &d_.export_ ? "/export" : "/onnx_export");
    auto exported = TRY(add_stage(StageKind::kExport, id, *tpl, vars, opt_.run_dir));
    follow_train(*exported, gpu, train_id);
    if (tpl == &d_.export_) export_id = exported->id;
  }
  if (d_.devices.apply_before_infer) apply_device(gpu);
  const std::string& subdir_value = val(pos::kInferenceDir);
  vars["inference_subdir"] = subdir_value == "null" || subdir_value == "##" ? "" : "/" + subdir_value;
  const std::string model_dir = TRY(render(d_.infer_model_dir, vars));
  vars["infer_model_dir"] = rules_.planned_path(model_dir);
  vars["infer_data"] = val(d_.infer_data_line);
  vars["infer_gpu"] = gpu.gpus;
  vars["infer_tag"] = rules_.infer_tag(vars["trainer"], vars["autocast"]);
  const auto one_gpu = gpu.cpu ? std::nullopt : std::optional<std::string>(gpu.gpus.substr(0, gpu.gpus.find(',')));
  TRY(inference_matrix(vars, iteration + "/infer", export_id, choice.quant ? "True" : "False", one_gpu, d_.infer_cwd));
  if (d_.devices.unset_after_infer) device_.reset();
  return {};
}

std::string Planner::run_dir_path(const std::string& relative) const {
  if (relative == ".") return opt_.run_dir;
  return opt_.run_dir == "." ? relative : opt_.run_dir + "/" + relative;
}

Result<void> Planner::inference_matrix(Vars vars, const std::string& prefix, const std::string& dep,
                                       const std::string& quant, const std::optional<std::string>& device,
                                       const std::string& cwd) {
  vars["infer_script"] = val(pos::kInference);
  vars["infer_use_gpu_key"] = key(pos::kInferUseGpu);
  vars["infer_model_dir_arg"] = emit(key(pos::kModelDir), vars["infer_model_dir"]);
  vars["infer_data_arg"] = emit(key(pos::kImageDir), vars["infer_data"]);
  vars["benchmark_arg"] = emit(key(pos::kBenchmark), val(pos::kBenchmark));
  vars["infer_extra_arg"] = emit(key(pos::kInferExtra), val(pos::kInferExtra));
  vars["infer_extra2_arg"] = emit(key(pos::kInferExtra2), val(pos::kInferExtra2));
  for (const char* loop : {"mkldnn", "threads", "batch_size", "precision", "trt"}) vars[loop] = "";
  for (const auto& use_gpu : split_list(val(pos::kInferUseGpu))) {
    vars["infer_use_gpu"] = use_gpu;
    const bool cpu = use_gpu == "False" || use_gpu == "cpu";
    const bool gpu = use_gpu == "True" || use_gpu == "gpu";
    if (!cpu && !gpu) {
      warn(pos::kInferUseGpu, key(pos::kInferUseGpu),
           fmt::format("'{}' is neither CPU (False, cpu) nor GPU (True, gpu); no inference runs for it", use_gpu));
      continue;
    }
    const auto& branch = cpu ? d_.infer_cpu : d_.infer_gpu;
    if (auto ok = inference_loops(branch, gpu, vars, 0, prefix, dep, quant, device, cwd); !ok) return ok;
  }
  return {};
}

// Which line each inference loop variable iterates.
int loop_line(dialect::InferenceLoop loop) {
  switch (loop) {
    case dialect::InferenceLoop::kMkldnn: return pos::kEnableMkldnn;
    case dialect::InferenceLoop::kThreads: return pos::kCpuThreads;
    case dialect::InferenceLoop::kBatchSize: return pos::kInferBatch;
    case dialect::InferenceLoop::kTrt: return pos::kUseTensorrt;
    case dialect::InferenceLoop::kPrecision: break;
  }
  return pos::kPrecision;
}

bool skip_rule_applies(dialect::SkipRule rule, const Vars& v, const std::string& quant) {
  using dialect::SkipRule;
  const std::string& m = v.find("mkldnn")->second;
  const std::string& p = v.find("precision")->second;
  const std::string& trt = v.find("trt")->second;
  switch (rule) {
    case SkipRule::kCpuNoMkldnnFp16: return m == "False" && p == "fp16";
    case SkipRule::kCpuQuantNeedsInt8: return quant == "True" && test_differs(p, "int8");
    case SkipRule::kCpuNoMkldnnQuant: return m == "False" && quant == "True";
    case SkipRule::kCpuNonquantNeedsFp32: return quant == "False" && test_differs(p, "fp32");
    case SkipRule::kGpuInt8NeedsQuant: return quant == "False" && contains(p, "int8");
    case SkipRule::kGpuFp16Int8NeedTrt: return (contains(p, "fp16") || contains(p, "int8")) && trt == "False";
    case SkipRule::kGpuQuantNeedsTrtNonInt8: return quant == "True" && (trt == "False" || contains(p, "int8"));
    case SkipRule::kGpuPrecisionTrueNeedsTrt: return p == "True" && trt == "False";
    case SkipRule::kRunModes:
      if (p == "paddle") return false;
      return quant == "True" ? p != "trt_int8" : p == "trt_int8";
  }
  return false;
}

Result<void> Planner::inference_loops(const dialect::InferBranch& branch, bool on_gpu, Vars& vars, std::size_t level,
                                      const std::string& prefix, const std::string& dep, const std::string& quant,
                                      const std::optional<std::string>& device, const std::string& cwd) {
  if (level < branch.loops.size()) {
    const dialect::InferenceLoop loop = branch.loops[level];
    for (const auto& value : split_list(val(loop_line(loop)))) {
      vars[to_string(loop)] = value;
      if (auto ok = inference_loops(branch, on_gpu, vars, level + 1, prefix, dep, quant, device, cwd); !ok) return ok;
    }
    return {};
  }
  for (const dialect::SkipRule rule : branch.skip) {
    if (skip_rule_applies(rule, vars, quant)) return {};
  }
  vars["mkldnn_arg"] = emit(key(pos::kEnableMkldnn), vars["mkldnn"]);
  vars["mkldnn_arg_always"] = key(pos::kEnableMkldnn) + "=" + vars["mkldnn"];
  vars["threads_arg"] = emit(key(pos::kCpuThreads), vars["threads"]);
  vars["batch_size_arg"] = emit(key(pos::kInferBatch), vars["batch_size"]);
  vars["precision_arg"] = emit(key(pos::kPrecision), vars["precision"]);
  vars["trt_arg"] = emit(key(pos::kUseTensorrt), vars["trt"]);
  if (!branch.results_dir.empty()) {
    auto results = TRY(render(branch.results_dir, vars));
    vars["results_dir_arg"] = emit(key(pos::kInferExtra), results);
  }
  if (auto ok = render_slots(d_.infer_slots, vars); !ok) return ok;
  const std::string id =
      on_gpu ? fmt::format("{}/gpu_trt_{}_{}_bs{}", prefix, vars["trt"], vars["precision"], vars["batch_size"])
             : fmt::format("{}/cpu_mkldnn_{}_threads_{}_{}_bs{}", prefix, vars["mkldnn"], vars["threads"],
                           vars["precision"], vars["batch_size"]);
  auto stage = TRY(add_stage(StageKind::kInfer, id, branch.stage, vars, run_dir_path(cwd)));
  if (!dep.empty()) stage->deps = {dep};
  stage->needs.gpus = on_gpu ? 1 : 0;
  stage->benchmark = val(pos::kBenchmark) == "True";
  // Default mode: logical ids; a GPU inference after a CPU training still needs one GPU.
  stage->env["CUDA_VISIBLE_DEVICES"] = devices(on_gpu ? device.value_or("0") : std::optional<std::string>());
  return {};
}

}  // namespace

Result<Plan> make_plan(const config::TrainInferConfig& config, const Dialect& dialect, const PlanOptions& options) {
  if (dialect.layout.empty()) return Planner(config, dialect, options).run();
  const config::TrainInferConfig laid_out = dialect::apply_layout(config, dialect.layout);
  return Planner(laid_out, dialect, options).run();
}

}  // namespace tipc::plan
