#include "plan/plan_file.h"

#include <fmt/format.h>

#include "config/config_text.h"
#include "config/positions.h"
#include "config/train_infer_config.h"
#include "core/split_list.h"
#include "dialect/anchor_check.h"

namespace tipc::plan {
namespace {

config::SplitRules split_rules(const dialect::Dialect& dialect, bool compat) {
  if (compat) return dialect.compat_split;
  return config::SplitRules{config::ValueSplit::kFirstColon, false, false};
}

// D5: a MODE missing from a `mode=value|...` list silently falls back to the model's
// own default (often hundreds of epochs); say so.
void warn_unlisted_mode(const config::TrainInferConfig& config, const dialect::Dialect& dialect, Plan& plan) {
  if (dialect.epoch_batch != "mode_select") return;
  const auto& whole = dialect.whole_infer.modes;
  if (std::find(whole.begin(), whole.end(), plan.mode) != whole.end()) return;  // whole-inference trains nothing
  for (int line : {config::pos::kEpoch, config::pos::kBatch}) {
    const std::string& value = config.value(line);
    if (value.find('=') == std::string::npos) continue;
    bool listed = false;
    for (const auto& entry : split_list(value)) listed = listed || entry.substr(0, entry.find('=')) == plan.mode;
    if (!listed) {
      plan.warnings.push_back({config.path, config.at(line).physical_line, config.key(line),
                               fmt::format("mode '{}' is not listed in '{}': the parameter is dropped and the model's "
                                           "own default applies",
                                           plan.mode, value)});
    }
  }
}

}  // namespace

Result<void> check_mode(const dialect::Dialect& dialect, const std::string& mode) {
  const auto& known = dialect.known_modes;
  if (std::find(known.begin(), known.end(), mode) == known.end()) {
    return fail(Error::plain(fmt::format("unknown mode '{}' for dialect {} (known: {})", mode, dialect.name,
                                         fmt::join(known, ", "))));
  }
  return {};
}

Result<Plan> plan_file(const std::string& config_path, const dialect::Dialect& dialect, const PlanOptions& options) {
  config::ReadOptions read;
  read.keep_carriage_returns = options.compat;
  auto text = TRY(config::read_config_text(config_path, read));
  if (options.compat && dialect.max_physical_lines > 0) {
    std::erase_if(text.lines, [&](const config::ConfigLine& l) { return l.physical_line > dialect.max_physical_lines; });
  }
  const config::TrainInferConfig config = config::split_config(text, split_rules(dialect, options.compat));
  dialect::AnchorFindings anchors;
  if (!options.compat) {
    anchors = dialect::check_anchors(config, dialect.anchors);
    if (!anchors.errors.empty()) return fail(Error{std::move(anchors.errors)});
    TRY(check_mode(dialect, options.mode));
  }
  auto plan = make_plan(config, dialect, options);
  if (plan && !options.compat) {
    plan->warnings.insert(plan->warnings.begin(), anchors.notes.begin(), anchors.notes.end());
    warn_unlisted_mode(config, dialect, *plan);
  }
  return plan;
}

}  // namespace tipc::plan
