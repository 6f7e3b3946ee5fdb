#include "plan/plan_file.h"

#include <fmt/format.h>

#include "config/positions.h"
#include "config/train_infer_config.h"
#include "core/split_list.h"
#include "dialect/anchor_check.h"
#include "plan/config_lint.h"

namespace tipc::plan {
namespace {

// D5 in docs/reference-runner.md: a MODE missing from a `mode=value|...` list silently falls back to the model's
// own default (often hundreds of epochs); say so.
void warn_unlisted_mode(const config::TrainInferConfig& config, const dialect::Dialect& dialect, Plan& plan) {
  if (dialect.epoch_batch != dialect::EpochBatch::kModeSelect) return;
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

// Every problem of the layout and the lines at once, by line.
std::vector<Diagnostic> in_line_order(std::vector<Diagnostic> layout, const std::vector<Diagnostic>& lines) {
  layout.insert(layout.end(), lines.begin(), lines.end());
  std::stable_sort(layout.begin(), layout.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
  return layout;
}

}  // namespace

Result<void> check_mode(const dialect::Dialect& dialect, const std::string& mode) {
  const auto& known = dialect.known_modes;
  if (std::find(known.begin(), known.end(), mode) == known.end()) {
    return fail(Error::plain(
        fmt::format("unknown mode '{}' for dialect {} (known: {})", mode, dialect.name, fmt::join(known, ", "))));
  }
  return {};
}

Result<Plan> plan_config(const config::ConfigText& text, const dialect::Dialect& dialect, const PlanOptions& options) {
  const config::TrainInferConfig config = options.rules->read_config(text, dialect);
  const bool checked = options.rules->checks_config();
  dialect::AnchorFindings anchors;
  LintFindings lint;
  if (checked) {
    anchors = dialect::check_anchors(config, dialect.anchors);
    lint = lint_config(config, &dialect);
    if (!anchors.errors.empty() || !lint.errors.empty()) return fail(Error{in_line_order(anchors.errors, lint.errors)});
    TRY(check_mode(dialect, options.mode));
  }
  auto plan = make_plan(config, dialect, options);
  if (plan && checked) {
    plan->warnings.insert(plan->warnings.begin(), lint.warnings.begin(), lint.warnings.end());
    plan->warnings.insert(plan->warnings.begin(), anchors.notes.begin(), anchors.notes.end());
    warn_unlisted_mode(config, dialect, *plan);
  }
  return plan;
}

}  // namespace tipc::plan
