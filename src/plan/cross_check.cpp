#include "plan/cross_check.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "config/key_value.h"
#include "core/split_list.h"
#include "dialect/anchor_check.h"
#include "plan/config_lint.h"
#include "plan/stage_kind_match.h"

namespace tipc::plan {
namespace {

bool any_command_contains(const Plan& plan, const std::string& text) {
  return std::any_of(plan.stages.begin(), plan.stages.end(),
                     [&](const Stage& s) { return s.results_log.shell_text.find(text) != std::string::npos; });
}

bool is_word_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `word` stands in `text` as a word of its own: `unet` in `--arch unet`, not in `unet_train.py`.
bool contains_word(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); !word.empty() && at != std::string::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !is_word_character(text[at - 1])) && (end == text.size() || !is_word_character(text[end])))
      return true;
  }
  return false;
}

// D3 in docs/reference-runner.md: the runner used the text up to the second colon where the line holds more.
// A runner that reads past that colon on purpose (`seg:unet` as `--type seg --arch unet`) used
// the rest too: what the trace recorded says it cut nothing.
void check_truncation(const config::TrainInferConfig& config, const Plan& plan, std::vector<Diagnostic>& out) {
  for (const auto& field : config.fields) {
    const auto whole = config::split_key_value(field.text, {config::ValueSplit::kFirstColon, false, false});
    const auto cut = config::split_key_value(field.text, {config::ValueSplit::kSecondColon, false, false});
    if (whole.value == cut.value || cut.value.empty() || cut.value == "null") continue;
    if (any_command_contains(plan, whole.value) || !any_command_contains(plan, cut.value)) continue;
    const std::string rest = whole.value.substr(std::min(whole.value.size(), cut.value.size() + 1));
    const bool rest_used = std::any_of(plan.stages.begin(), plan.stages.end(),
                                       [&](const Stage& s) { return contains_word(s.results_log.shell_text, rest); });
    if (rest_used) continue;
    out.push_back({config.path, field.physical_line, field.key,
                   fmt::format("the runner cut the value at its second colon: it used '{}', the line says '{}' "
                               "(reference defect D3)",
                               cut.value, whole.value)});
  }
}

// `lite_train_lite_infer=1|whole_train_whole_infer=50`: every entry a mode's name, `=`, a
// value. A script line with `=` in it (`tools/train.py --epochs=1`) is none.
bool is_mode_list(const std::string& value) {
  const auto entries = split_list(value);
  bool trains = false;
  for (const auto& entry : entries) {
    const std::string name = entry.substr(0, entry.find('='));
    if (entry.find('=') == std::string::npos || name.empty() ||
        !std::all_of(name.begin(), name.end(), is_word_character)) {
      return false;
    }
    trains = trains || name.find("train") != std::string::npos;
  }
  return trains;
}

// The value a train stage passed for `key`: `key=VALUE`, or `key VALUE`.
std::optional<std::string> value_passed(const Plan& plan, const std::string& key) {
  for (const auto& stage : plan.stages) {
    if (stage.kind != StageKind::kTrain) continue;
    for (std::size_t k = 1; k < stage.argv.size(); ++k) {
      if (stage.argv[k].starts_with(key + "=")) return stage.argv[k].substr(key.size() + 1);
      if (stage.argv[k] == key && k + 1 < stage.argv.size()) return stage.argv[k + 1];
    }
  }
  return std::nullopt;
}

// D5 in docs/reference-runner.md: a `mode=value|...` override the runner dropped, or replaced by a value of its own.
void check_mode_overrides(const config::TrainInferConfig& config, const Plan& plan, std::vector<Diagnostic>& out) {
  if (plan.mode.find("train") == std::string::npos) return;
  for (const auto& field : config.fields) {
    if (!is_mode_list(field.value)) continue;
    std::optional<std::string> listed;
    for (const auto& entry : split_list(field.value)) {
      if (entry.substr(0, entry.find('=')) == plan.mode) listed = entry.substr(entry.find('=') + 1);
    }
    const std::optional<std::string> passed = value_passed(plan, field.key);
    std::string problem;
    if (!listed && !passed) {
      problem = fmt::format(
          "mode '{}' is not listed: the runner dropped the parameter and the model's own default "
          "applies",
          plan.mode);
    } else if (listed && passed && *passed != *listed) {
      problem = fmt::format("the runner trained with {}={}, not the {} this line gives mode '{}'", field.key, *passed,
                            *listed, plan.mode);
    }
    if (!problem.empty())
      out.push_back({config.path, field.physical_line, field.key, problem + " (reference defect D5)"});
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
void check_unmatched_scripts(const config::TrainInferConfig& config, const std::vector<dialect::ScriptKey>& keys,
                             const Plan& plan, std::vector<Diagnostic>& out) {
  const auto scripts = script_lines(config, keys);
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
                                    const std::vector<dialect::ScriptKey>& script_keys, const Plan& traced) {
  std::vector<Diagnostic> found;
  // The layout's breaks only: a renamed key in a sound layout is one the runner never reads.
  if (native) {
    found = dialect::check_anchors(config, native->anchors).errors;
    auto lint = lint_config(config, native);
    found.insert(found.end(), lint.errors.begin(), lint.errors.end());
    found.insert(found.end(), lint.warnings.begin(), lint.warnings.end());
  }
  check_unmatched_scripts(config, script_keys, traced, found);
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
