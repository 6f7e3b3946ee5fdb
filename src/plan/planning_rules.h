#pragma once
// The decisions on which tipc-run's own planning and the reference runner's differ, one
// method each. The planners consult them and never ask which rules they have: the native
// rules (plan/native_rules.h) are tipc-run's, the reference's (compat/reference_planning_rules.h)
// reproduce the runner byte for byte, quirks included (--compat).
#include <cstddef>
#include <optional>
#include <string>

#include "config/config_text.h"
#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"
#include "plan/gpu_element.h"
#include "plan/shell_words.h"

namespace tipc::plan {

struct Plan;

class PlanningRules {
 public:
  virtual ~PlanningRules() = default;

  // Whether a plan made by these rules is the reference's (recorded in the journal, shown by --plan).
  virtual bool reproduces_reference() const = 0;

  // --- reading the config ---
  // How a line's bytes are read (CR, trailing blanks).
  virtual config::LineView line_view() const = 0;
  // The config's text split into its lines, as a dialect's planner reads them.
  virtual config::TrainInferConfig read_config(const config::ConfigText& text,
                                               const dialect::Dialect& dialect) const = 0;
  // Whether the config is checked before planning (anchors, lints, the MODE, reading
  // warnings, the cross-check of a traced plan) and alignment checks are added after.
  virtual bool checks_config() const = 0;
  // The text of a `mode=value|...` line that the MODE selects from.
  virtual std::string mode_list_text(const config::TrainInferConfig& config, int line) const = 0;

  // --- commands and paths ---
  // A path the dialect's templates render (a stage's log, an inference model directory).
  virtual std::string planned_path(const std::string& rendered) const = 0;
  // How a command's text is cut into argv.
  virtual ShellSplitOptions command_words() const = 0;
  // Said after a warning that a command holds shell constructs ("" = nothing).
  virtual std::string shell_constructs_note() const = 0;
  // The tag an inference log's name starts with.
  virtual std::string infer_tag(const std::string& trainer, const std::string& autocast) const = 0;

  // --- devices ---
  // One element of gpu_list; `ips` is the runner's variable, kept across elements.
  virtual Result<GpuElement> gpu_element(const std::string& text, std::string& ips,
                                         const dialect::Dialect& dialect) const = 0;
  // A stage's CUDA_VISIBLE_DEVICES: the runner's variable as it stands, or the stage's own GPUs.
  virtual std::optional<std::string> visible_devices(const std::optional<std::string>& runner_variable,
                                                     const std::optional<std::string>& stage_gpus) const = 0;
  // The ranks of a CPU train whose launcher spawns ranks, given the --cpu-train-processes setting.
  virtual int cpu_train_processes(int setting) const = 0;
  // Whether a traced GPU stage without CUDA_VISIBLE_DEVICES gets logical ids 0..n-1.
  virtual bool adds_logical_gpu_ids() const = 0;

  // --- what a config may leave odd ---
  // A config that names a trainer but plans nothing: the error, or `plan`'s warning.
  virtual Result<void> empty_train_plan(const Diagnostic& problem, Plan& plan) const = 0;
  // Whether a trainer whose script is empty (not null) is an error.
  virtual bool rejects_empty_script() const = 0;
  // Whether OCR's and Seg's whole-inference lists must have one entry per model.
  virtual bool requires_one_entry_per_model() const = 0;
  // The exit code of a config error that stops the plan (`usual` for tipc-run's own).
  virtual int stopping_error_exit_code(int usual) const = 0;

  // --- what the reference decides on disk or by position ---
  // Whether train_model_name becomes the dialect's checkpoint fallback after a train (Seg).
  virtual bool takes_checkpoint_fallback() const = 0;
  // Whether the dialect's export_without_weights models export without their weights.
  virtual bool exports_without_weights() const = 0;
  // Which quant flag a Det whole-inference mode reads: by processed modes or by position.
  virtual std::size_t quant_index(std::size_t processed, std::size_t position) const = 0;
  // Whether the trace is probed call by call for whose exit status each status line reports.
  virtual bool probes_status_sources() const = 0;
};

}  // namespace tipc::plan
