#include "compat/reference_planning_rules.h"

#include "compat/reference_gpu_element.h"
#include "config/key_value.h"
#include "config/train_infer_config.h"
#include "plan/native_rules.h"
#include "plan/plan.h"

namespace tipc::compat {

// The dialect's own split (where a runner cuts a value), and no line past the last one the
// runner reads (PaddleVideo's template reads 51).
config::TrainInferConfig ReferencePlanningRules::read_config(const config::ConfigText& text,
                                                             const dialect::Dialect& dialect) const {
  config::TrainInferConfig config = config::split_config(text, dialect.compat_split, line_view());
  if (dialect.max_physical_lines > 0) {
    std::erase_if(config.fields, [&](const config::Field& f) { return f.physical_line > dialect.max_physical_lines; });
    config.physical.resize(std::min(config.physical.size(), static_cast<std::size_t>(dialect.max_physical_lines)));
  }
  return config;
}

// Every dialect's runner selects on the value as split at colons, up to the first (docs/config-format.md#modevaluemodevalue-selection).
std::string ReferencePlanningRules::mode_list_text(const config::TrainInferConfig& config, int line) const {
  const std::string value = config::split_key_value(config.at(line).text, {}).value;
  return value.substr(0, value.find(':'));
}

// The runner's string-length rules with their oddities (D10 in docs/reference-runner.md); GAN exports the whole list,
// and a runner that reads `ips` first exports the first GPU of an ips element.
Result<plan::GpuElement> ReferencePlanningRules::gpu_element(const std::string& text, std::string& ips,
                                                             const dialect::Dialect& dialect) const {
  plan::GpuElement gpu = reference_gpu_element(text, ips, dialect.ips_threshold);
  if (dialect.devices.whole_list && gpu.device) gpu.device = gpu.gpus;
  if (dialect.devices.ips_first_gpu && !gpu.device && gpu.ips) gpu.device = gpu.gpus.substr(0, gpu.gpus.find(','));
  return gpu;
}

// The runner plans nothing and exits 0: the empty plan, with a warning.
Result<void> ReferencePlanningRules::empty_train_plan(const Diagnostic& problem, plan::Plan& plan) const {
  plan.warnings.push_back(problem);
  return {};
}

const plan::PlanningRules& reference_planning_rules() {
  static const ReferencePlanningRules rules;
  return rules;
}

const plan::PlanningRules& planning_rules(bool compat) {
  return compat ? reference_planning_rules() : plan::native_planning_rules();
}

}  // namespace tipc::compat
