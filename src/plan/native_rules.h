#pragma once
// tipc-run's own planning rules: the config is checked, paths are normal, every stage sees
// only its own GPUs, and what the reference leaves to chance is an error.
#include <string>

#include "plan/planning_rules.h"

namespace tipc::plan {

// Drops empty path components ("a//b", a trailing "/"): D7's default mode.
std::string normalise_path(const std::string& path);

class NativeRules : public PlanningRules {
 public:
  bool reproduces_reference() const override { return false; }
  // CR line ends and trailing blanks are read away (and warned about).
  config::LineView line_view() const override { return config::LineView::kNormalised; }
  config::TrainInferConfig read_config(const config::ConfigText& text, const dialect::Dialect& dialect) const override;
  // A config the lints or anchors reject is refused before anything runs.
  bool checks_config() const override { return true; }
  std::string mode_list_text(const config::TrainInferConfig& config, int line) const override;
  std::string planned_path(const std::string& rendered) const override { return normalise_path(rendered); }
  // A `|` in a command is the command's own character.
  ShellSplitOptions command_words() const override { return {.pipe_is_space = false}; }
  std::string shell_constructs_note() const override { return ""; }
  std::string infer_tag(const std::string& trainer, const std::string& autocast) const override;
  Result<GpuElement> gpu_element(const std::string& text, std::string& ips,
                                 const dialect::Dialect& dialect) const override;
  std::optional<std::string> visible_devices(const std::optional<std::string>& runner_variable,
                                             const std::optional<std::string>& stage_gpus) const override;
  int cpu_train_processes(int setting) const override { return setting; }
  bool adds_logical_gpu_ids() const override { return true; }
  Result<void> empty_train_plan(const Diagnostic& problem, Plan& plan) const override;
  bool rejects_empty_script() const override { return true; }
  bool requires_one_entry_per_model() const override { return true; }
  int stopping_error_exit_code(int usual) const override { return usual; }
  bool takes_checkpoint_fallback() const override { return false; }
  bool exports_without_weights() const override { return false; }
  std::size_t quant_index(std::size_t processed, std::size_t position) const override;
  bool probes_status_sources() const override { return false; }
};

// The rules a PlanOptions holds unless it is given others.
const PlanningRules& native_planning_rules();

}  // namespace tipc::plan
