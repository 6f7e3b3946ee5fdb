#pragma once
// A dialect is one drifted copy of the reference runner (PaddleOCR, PaddleClas, ...).
// Everything that differs between them is data, loaded from configs/dialects/*.yaml;
// the planner reads these fields and never asks which repository it is planning for.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/key_value.h"
#include "core/error.h"
#include "dialect/dialect_words.h"
#include "dialect/launcher.h"

namespace tipc::dialect {

// A key expected at a logical line (strict validation, D4 in docs/reference-runner.md).
struct Anchor {
  int line = 0;
  std::vector<std::string> keys;  // accepted keys; empty when `header` is used
  std::string header;             // the line must be a ===...=== header containing this word
};

// A slot whose text is looked up by the value of a template variable (the autocast
// value, the MODE, a line's key). Case names are glob patterns, tried in file order;
// the text is itself a template.
struct LookupSlot {
  std::string by;  // the variable: "autocast", "mode", "key_35", ...
  std::vector<std::pair<std::string, std::string>> cases;
  std::string fallback;
  // Instead of cases: the variable's value with the first `from` replaced by `to`
  // (bash's ${var/from/to}; PaddleGAN names the trainer's log after its checkpoint).
  std::optional<std::pair<std::string, std::string>> replace;
};

struct GlobValue {
  std::string glob;
  std::string value;
};

struct ModelSuffixRule {
  std::vector<std::string> model_globs;
  std::vector<std::string> autocast;
  std::string text;
};

// How a trainer name from the `trainer:` list selects its train and export lines (docs/config-format.md#trainer-selection).
struct TrainerRule {
  enum class Match { kKeyEquals, kKeyGlob, kToStatic };
  Match match = Match::kKeyEquals;
  int train_line = 0;  // ignored for kToStatic (uses the norm line)
  int export_line = 0;
  bool quant = false;
};

struct ToStatic {
  enum class Source { kNone, kHeaderLookup, kLine };
  Source source = Source::kNone;
  int line = 0;             // for kLine
  std::string join = "  ";  // text between the norm script and the to-static text
  bool own_slot = false;    // Det: the text goes into the {to_static_text} slot instead
};

// Which events touch CUDA_VISIBLE_DEVICES in compat mode (docs/reference-runner.md#cuda_visible_devices).
struct DeviceEvents {
  bool set_on_gpu_select = false;  // single-character gpu element: set when selected
  bool apply_before_eval = false;
  bool apply_before_infer = true;
  bool unset_after_infer = false;
  bool unset_after_trainer = false;
  bool unset_before_train = false;
  bool whole_list = false;     // GAN: the whole comma list instead of its first id
  bool ips_first_gpu = false;  // models tutorial: an `ips;gpus` element applies its first gpu
};

struct StageTemplate {
  std::string command;                  // the reference's command text (status line, compat shell text)
  std::string evaluated = "{command}";  // what the reference hands to the shell
  std::string log;                      // where the stage's output goes
  std::string status_log;               // the log named in the status line
  std::string trainer_log;              // a log the trainer writes itself, appended to `log` afterwards (OCR, Clas)
};

struct InferBranch {
  std::vector<InferenceLoop> loops;  // iteration order, outermost first
  std::vector<SkipRule> skip;
  StageTemplate stage;
  std::string results_dir;  // Seg's per-run results directory ({results_dir_arg})
};

struct WholeInfer {
  WholeInferStyle style = WholeInferStyle::kNone;  // export_list (OCR/Seg), kl_quant (Clas), mode_list (Det)
  std::vector<std::string> modes;                  // MODE values that take this branch
  StageTemplate export_stage;
  std::string model_dir = "{infer_model}";
  std::string export_output = "{infer_model}";
  int data_line = 48;
  std::string infer_cwd = ".";  // Clas KL: the runner changes into deploy/
};

struct Dialect {
  std::string name;
  std::string source_file;
  std::vector<std::string> markers;  // repository-root paths that identify it
  std::vector<std::string> known_modes;

  config::SplitRules compat_split;
  EpochBatch epoch_batch = EpochBatch::kModeSelect;
  UseGpuPairing use_gpu_pairing = UseGpuPairing::kPerPosition;
  std::map<int, int> layout;           // reference position -> this dialect's line (dialect/layout.h)
  std::optional<LookupSlot> autocast;  // the autocast value per trainer instead of the L6 list
  std::vector<TrainerRule> trainer_rules;
  bool unknown_trainer_uses_norm = true;
  ToStatic to_static;
  int ips_threshold = 15;
  DeviceEvents devices;

  std::string log_dir;   // LOG
  std::string save_log;  // per (gpu, autocast, trainer) training directory
  std::string save_log_multi_node;
  std::string weights;                    // checkpoint path used by eval and export
  std::vector<GlobValue> weights_subdir;  // {weights_subdir}; first matching model glob, else the model name
  std::vector<std::string>
      export_without_weights;  // compat: models whose export gets no weights (D14 in docs/reference-runner.md)
  std::optional<std::string> checkpoint_fallback;  // Seg: replaces train_model_name after training
  int eval_weights_key_line = 10;
  bool pact_pretrain_from_norm = false;  // Seg: pact/fpgm reuse the last norm run's eval weights

  StageTemplate train_single, train_multi, train_multi_node;
  Launcher launcher;  // the default launcher of distributed trains (configs/launchers.yaml)
  StageTemplate eval, export_, onnx_export;
  std::string onnx_export_key;                                   // key(L35) that enables the ONNX export
  std::vector<std::pair<std::string, LookupSlot>> lookup_slots;  // rendered in file order, per train iteration
  std::vector<std::pair<std::string, LookupSlot>> infer_slots;   // the same, per inference stage
  std::map<std::string, std::string> train_env;                  // extra variables exported before training (GAN)
  int max_physical_lines = 0;  // compat: the runner reads only this many physical lines (Tpl: 51)
  std::vector<ModelSuffixRule> model_suffix;

  std::string infer_model_dir;
  int infer_data_line = 12;
  std::string infer_cwd = ".";
  InferBranch infer_cpu, infer_gpu;

  WholeInfer whole_infer;
  std::string status_line;  // format of one results_python.log line
  std::string banner;       // written before the first status line of a run ("" = none)

  std::vector<Anchor> anchors;

  // What the file should change although it loads: its old template variable names (one
  // warning for the file, dialect/template_variables.h). The CLI prints them once.
  std::vector<Diagnostic> warnings;
};

// Reads one dialect file; errors name the file, line and key.
Result<Dialect> load_dialect_file(const std::string& path);

// Loads <directory>/<name>.yaml (and its launcher); the file's name: must match.
Result<Dialect> load_dialect(const std::string& directory, const std::string& name);

// The directory of the shipped dialect files: $TIPC_DIALECT_DIR, next to the binary, or the source tree.
std::string default_dialect_directory();

}  // namespace tipc::dialect
