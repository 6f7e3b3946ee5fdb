#include "plan/config_lint.h"

#include <fmt/format.h>

#include "config/positions.h"
#include "core/split_list.h"
#include "dialect/layout.h"

namespace tipc::plan {
namespace {

// `--seed 42` was meant as `--seed:42`: the first blank is the colon that went missing.
std::string with_colon(const std::string& text) {
  const auto blank = text.find_first_of(" \t");
  if (blank == std::string::npos) return text + ":null";
  return text.substr(0, blank) + ":" + text.substr(text.find_first_not_of(" \t", blank));
}

// Headers (`===...===`) and `#` lines (`##` separators, comments) are no parameters; a line
// of blanks is the anchors' (an extra line).
void check_colons(const config::TrainInferConfig& config, std::vector<Diagnostic>& errors) {
  for (const auto& field : config.fields) {
    const std::string& text = field.text;
    if (text.find(':') != std::string::npos || text.starts_with("===") || text.starts_with('#')) continue;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    errors.push_back({config.path, field.physical_line, field.key,
                      fmt::format("no ':' in this line: the runner reads it all as a key with an empty value, so the "
                                  "parameter disappears from every command; write it as KEY:VALUE ('{}')",
                                  with_colon(text))});
  }
}

// Element i of the list on `line` goes with element i of the list on `by_line`; a missing
// one is empty. `lost` says what that loses, of {key} (the line's) for the unpaired {elements}.
void check_pairing(const config::TrainInferConfig& config, int line, int by_line, const char* lost,
                   std::vector<Diagnostic>& warnings) {
  const auto by = split_list(config.value(by_line));
  const auto values = split_list(config.value(line));
  if (values.empty() || values.size() >= by.size() || (values.size() == 1 && values[0] == "null")) return;
  const config::Field& field = config.at(line);
  const std::vector<std::string> unpaired(by.begin() + static_cast<std::ptrdiff_t>(values.size()), by.end());
  std::vector<std::string> fixed = values;
  fixed.resize(by.size(), values.back());
  warnings.push_back(
      {config.path, field.physical_line, field.key,
       fmt::format("{} value{} for {} {} elements ('{}'): the runner pairs them by position, so {}; "
                   "give one value per element ('{}:{}')",
                   values.size(), values.size() == 1 ? "" : "s", by.size(), config.key(by_line), config.value(by_line),
                   fmt::format(fmt::runtime(lost), fmt::arg("key", field.key),
                               fmt::arg("elements", fmt::format("'{}'", fmt::join(unpaired, "', '")))),
                   field.key, fmt::join(fixed, "|"))});
}

// docs/config-format.md#gpu_list-and-use_gpu: element i of L5 goes with gpu element i; docs/config-format.md#whole-inference: element i of L39 is the
// quant flag of the infer mode i of L38.
void check_pairings(const config::TrainInferConfig& config, const dialect::Dialect& dialect,
                    std::vector<Diagnostic>& warnings) {
  namespace pos = config::pos;
  if (dialect.use_gpu_pairing == dialect::UseGpuPairing::kPerPosition) {
    check_pairing(config, pos::kUseGpu, pos::kGpuList, "no {key} parameter reaches the train of gpu element {elements}",
                  warnings);
  }
  if (dialect.whole_infer.style == dialect::WholeInferStyle::kModeList) {
    check_pairing(config, pos::kInferQuant, pos::kInferExport,
                  "no {key} flag reaches infer mode {elements} (it runs with an empty one)", warnings);
  }
}

}  // namespace

LintFindings lint_config(const config::TrainInferConfig& config, const dialect::Dialect* dialect) {
  LintFindings found;
  check_colons(config, found.errors);
  if (!dialect) return found;
  if (dialect->layout.empty()) {
    check_pairings(config, *dialect, found.warnings);
  } else {
    check_pairings(dialect::apply_layout(config, dialect->layout), *dialect, found.warnings);
  }
  return found;
}

}  // namespace tipc::plan
