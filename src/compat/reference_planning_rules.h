#pragma once
// The reference runner's planning rules (--compat): what its shell scripts do, quirks
// included, so that a plan is the runner's command for command and byte for byte. Each
// method says what the runner does and why tipc-run's own rules (plan/native_rules.h) differ.
#include <string>

#include "plan/planning_rules.h"

namespace tipc::compat {

class ReferencePlanningRules : public plan::PlanningRules {
 public:
  bool reproduces_reference() const override { return true; }
  // The runner reads the bytes as they are: a CR stays part of the value.
  config::LineView line_view() const override { return config::LineView::kVerbatim; }
  config::TrainInferConfig read_config(const config::ConfigText& text, const dialect::Dialect& dialect) const override;
  // The reference checks nothing and adds no alignment checks: whatever it accepts is planned.
  bool checks_config() const override { return false; }
  std::string mode_list_text(const config::TrainInferConfig& config, int line) const override;
  // Paths stay as the runner's string concatenation made them ("a//b", a trailing "/").
  std::string planned_path(const std::string& rendered) const override { return rendered; }
  // The runner re-joins its words with IFS='|': a `|` in a command is a word break.
  plan::ShellSplitOptions command_words() const override { return {.pipe_is_space = true}; }
  std::string shell_constructs_note() const override { return " (the reference's shell would interpret them)"; }
  // Its inference logs carry no trainer or autocast: a later iteration overwrites an earlier one's.
  std::string infer_tag(const std::string&, const std::string&) const override { return ""; }
  Result<plan::GpuElement> gpu_element(const std::string& text, std::string& ips,
                                       const dialect::Dialect& dialect) const override;
  // The runner exports CUDA_VISIBLE_DEVICES once and every later command inherits it.
  std::optional<std::string> visible_devices(const std::optional<std::string>& runner_variable,
                                             const std::optional<std::string>&) const override {
    return runner_variable;
  }
  // A CPU train is the bare interpreter, one process.
  int cpu_train_processes(int) const override { return 1; }
  // The traced environment stays exactly as the runner set it.
  bool adds_logical_gpu_ids() const override { return false; }
  Result<void> empty_train_plan(const Diagnostic& problem, plan::Plan& plan) const override;
  // An empty script runs as an empty command, as the runner's would.
  bool rejects_empty_script() const override { return false; }
  // The runner indexes its lists as they come; a short list yields empty entries (D15 in docs/reference-runner.md).
  bool requires_one_entry_per_model() const override { return false; }
  // The runner's only non-zero exit.
  int stopping_error_exit_code(int) const override { return kExitFailed; }
  // The runner looks for the checkpoint on disk; a plan sees no training output, so it takes
  // the fallback name as the run would after a train (docs/reference-runner.md#command-shapes).
  bool takes_checkpoint_fallback() const override { return true; }
  // The runner's export line for these models passes no weights (D14 in docs/reference-runner.md).
  bool exports_without_weights() const override { return true; }
  // The runner counts the modes it processed, so a skipped mode shifts the quant flags (D15 in docs/reference-runner.md).
  std::size_t quant_index(std::size_t processed, std::size_t) const override { return processed; }
  // Each status line gets the word of the exit status the runner wrote, found by probes.
  bool probes_status_sources() const override { return true; }
};

const plan::PlanningRules& reference_planning_rules();

// The one place that picks the planning rules: the reference's under --compat, tipc-run's otherwise.
const plan::PlanningRules& planning_rules(bool compat);

}  // namespace tipc::compat
