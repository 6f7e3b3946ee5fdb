#include "plan/native_rules.h"

#include <fmt/format.h>

#include "plan/plan.h"

namespace tipc::plan {

std::string normalise_path(const std::string& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '/' && !out.empty() && out.back() == '/') continue;
    out += path[i];
  }
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// Values split at their first colon; CR line ends and trailing blanks read away.
config::TrainInferConfig NativeRules::read_config(const config::ConfigText& text, const dialect::Dialect&) const {
  return config::split_config(text, config::SplitRules{config::ValueSplit::kFirstColon, false, false}, line_view());
}

std::string NativeRules::mode_list_text(const config::TrainInferConfig& config, int line) const {
  return config.value(line);
}

// Each trainer and autocast value gets its own inference logs, which would overwrite each other otherwise.
std::string NativeRules::infer_tag(const std::string& trainer, const std::string& autocast) const {
  return fmt::format("{}_{}_", trainer, autocast);
}

// Parsed structurally: a malformed element is an error (its position filled in by the planner).
Result<GpuElement> NativeRules::gpu_element(const std::string& text, std::string&, const dialect::Dialect&) const {
  return parse_gpu_element(text);
}

// Each stage sees its own GPUs only, whatever an earlier stage selected.
std::optional<std::string> NativeRules::visible_devices(const std::optional<std::string>&,
                                                        const std::optional<std::string>& stage_gpus) const {
  return stage_gpus;
}

// A silent empty plan would pass: it is the config's error.
Result<void> NativeRules::empty_train_plan(const Diagnostic& problem, Plan&) const { return fail(Error{{problem}}); }

// By position: mode i reads quant flag i.
std::size_t NativeRules::quant_index(std::size_t, std::size_t position) const { return position; }

const PlanningRules& native_planning_rules() {
  static const NativeRules rules;
  return rules;
}

}  // namespace tipc::plan
