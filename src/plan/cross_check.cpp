#include "plan/cross_check.h"

#include <functional>

#include <fmt/format.h>

#include "config/key_value.h"
#include "core/split_list.h"
#include "dialect/anchor_check.h"
#include "plan/config_lint.h"
#include "plan/stage_kind_match.h"

namespace tipc::plan {
namespace {

bool any_arg(const Plan& plan, const std::function<bool(const Stage&, const std::string&)>& test) {
  for (const auto& stage : plan.stages) {
    for (std::size_t k = 1; k < stage.argv.size(); ++k) {
      if (test(stage, stage.argv[k])) return true;
    }
  }
  return false;
}

bool any_command_contains(const Plan& plan, const std::string& text) {
  return std::any_of(plan.stages.begin(), plan.stages.end(),
                     [&](const Stage& s) { return s.results_log.shell_text.find(text) != std::string::npos; });
}

// D3 in docs/reference-runner.md: the runner used the text up to the second colon where the line holds more.
void check_truncation(const config::TrainInferConfig& config, const Plan& plan, std::vector<Diagnostic>& out) {
  for (const auto& field : config.fields) {
    const auto whole = config::split_key_value(field.text, {config::ValueSplit::kFirstColon, false, false});
    const auto cut = config::split_key_value(field.text, {config::ValueSplit::kSecondColon, false, false});
    if (whole.value == cut.value || cut.value.empty() || cut.value == "null") continue;
    if (any_command_contains(plan, whole.value) || !any_command_contains(plan, cut.value)) continue;
    out.push_back({config.path, field.physical_line, field.key,
                   fmt::format("the runner cut the value at its second colon: it used '{}', the line says '{}' "
                               "(reference defect D3)",
                               cut.value, whole.value)});
  }
}

// D5 in docs/reference-runner.md: a `mode=value|...` override the runner dropped, or replaced by a value of its own.
void check_mode_overrides(const config::TrainInferConfig& config, const Plan& plan, std::vector<Diagnostic>& out) {
  if (plan.mode.find("train") == std::string::npos) return;
  for (const auto& field : config.fields) {
    if (field.value.find('=') == std::string::npos || field.value.find("train") == std::string::npos) continue;
    std::optional<std::string> listed;
    for (const auto& entry : split_list(field.value)) {
      if (entry.substr(0, entry.find('=')) == plan.mode) listed = entry.substr(entry.find('=') + 1);
    }
    std::optional<std::string> passed;
    any_arg(plan, [&](const Stage& s, const std::string& arg) {
      if (s.kind != StageKind::kTrain || !arg.starts_with(field.key + "=")) return false;
      passed = arg.substr(field.key.size() + 1);
      return true;
    });
    std::string problem;
    if (!listed && !passed) {
      problem = fmt::format("mode '{}' is not listed: the runner dropped the parameter and the model's own default "
                            "applies",
                            plan.mode);
    } else if (listed && passed && *passed != *listed) {
      problem = fmt::format("the runner trained with {}={}, not the {} this line gives mode '{}'", field.key, *passed,
                            *listed, plan.mode);
    }
    if (!problem.empty()) out.push_back({config.path, field.physical_line, field.key, problem + " (reference defect D5)"});
  }
}

// D13 in docs/reference-runner.md: a trainer the trainer line names whose script is empty.
void check_empty_trainers(const config::TrainInferConfig& config, std::vector<Diagnostic>& out) {
  std::vector<std::string> trainers;
  for (const auto& field : config.fields) {
    if (field.key == "trainer") trainers = split_list(field.value);
  }
  for (const auto& field : config.fields) {
    if (std::find(trainers.begin(), trainers.end(), field.key) == trainers.end() || !field.value.empty()) continue;
    out.push_back({config.path, field.physical_line, field.key,
                   fmt::format("trainer '{}' has an empty script: the runner starts the interpreter without one "
                               "(write null to skip it; reference defect D13)",
                               field.key)});
  }
}

// D4 in docs/reference-runner.md seen in the trace: a stage that runs a word no script line of the config names.
void check_unmatched_scripts(const config::TrainInferConfig& config, const Plan& plan, std::vector<Diagnostic>& out) {
  const auto scripts = script_lines(config);
  for (const auto& stage : plan.stages) {
    if (stage.argv.size() < 2 || match_stage_kind(scripts, {stage.argv.begin() + 1, stage.argv.end()}, "").line) {
      continue;
    }
    const std::string& word = stage.argv[1];
    for (const auto& field : config.fields) {
      if (split_list(field.value).empty() || split_list(field.value)[0] != word) continue;
      out.push_back({config.path, field.physical_line, field.key,
                     fmt::format("stage {} runs '{}', which the runner read from this line: no script line names it "
                                 "(a shifted line? reference defect D4)",
                                 stage.id, word)});
      break;
    }
  }
}

}  // namespace

std::vector<Diagnostic> cross_check(const config::TrainInferConfig& config, const dialect::Dialect* native,
                                    const Plan& traced) {
  std::vector<Diagnostic> found;
  // The layout's breaks only: a renamed key in a sound layout is one the runner never reads.
  if (native) {
    found = dialect::check_anchors(config, native->anchors).errors;
    auto lint = lint_config(config, native);
    found.insert(found.end(), lint.errors.begin(), lint.errors.end());
    found.insert(found.end(), lint.warnings.begin(), lint.warnings.end());
  }
  check_unmatched_scripts(config, traced, found);
  check_truncation(config, traced, found);
  check_mode_overrides(config, traced, found);
  check_empty_trainers(config, found);
  return found;
}

Result<void> strict_cross_check(std::vector<Diagnostic> findings) {
  if (findings.empty()) return {};
  for (auto& finding : findings) finding.message += " (an error with --strict)";
  return fail(Error{std::move(findings)});
}

}  // namespace tipc::plan
