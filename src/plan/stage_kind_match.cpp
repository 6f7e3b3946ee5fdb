#include "plan/stage_kind_match.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include "core/split_list.h"
#include "plan/shell_words.h"

namespace tipc::plan {
namespace {

std::vector<std::string> words_of(const std::string& element) {
  auto split = split_shell_words(element, {.pipe_is_space = false});
  return split ? split->words : std::vector<std::string>{};
}

// Length of the longest run of `words` found contiguously in `args`; 0 when absent.
std::size_t occurrence(const std::vector<std::string>& words, const std::vector<std::string>& args) {
  if (words.empty() || words.size() > args.size()) return 0;
  for (std::size_t at = 0; at + words.size() <= args.size(); ++at) {
    bool all = true;
    for (std::size_t k = 0; k < words.size() && all; ++k) {
      const bool last = k + 1 == words.size();
      all = args[at + k] == words[k] || (last && !words[k].empty() && args[at + k].starts_with(words[k]));
    }
    if (all) return words.size();
  }
  return 0;
}

StageKind kind_from_log_name(const std::string& log) {
  const std::string name = std::filesystem::path(log).filename().string();
  if (name.find("export") != std::string::npos) return StageKind::kExport;
  if (name.find("eval") != std::string::npos) return StageKind::kEval;
  if (name.find("infer") != std::string::npos) return StageKind::kInfer;
  if (name.find("train") != std::string::npos) return StageKind::kTrain;
  return StageKind::kOther;
}

}  // namespace

std::optional<StageKind> kind_of_key(const std::vector<dialect::ScriptKey>& keys, const std::string& key,
                                     const std::map<std::string, std::vector<std::string>>& listed) {
  for (const auto& entry : keys) {
    if (entry.pattern.starts_with("@")) {
      const auto names = listed.find(entry.pattern.substr(1));
      if (names != listed.end() && std::find(names->second.begin(), names->second.end(), key) != names->second.end()) {
        return entry.kind;
      }
    } else if (fnmatch(entry.pattern.c_str(), key.c_str(), 0) == 0) {
      return entry.kind;
    }
  }
  return std::nullopt;
}

std::vector<ScriptLine> script_lines(const config::TrainInferConfig& config,
                                     const std::vector<dialect::ScriptKey>& keys) {
  std::map<std::string, std::vector<std::string>> listed;  // "@KEY" -> the names the config's KEY line lists
  for (const auto& key : keys) {
    if (key.pattern.starts_with("@")) listed[key.pattern.substr(1)];
  }
  for (const auto& field : config.fields) {
    if (const auto it = listed.find(field.key); it != listed.end()) it->second = split_list(field.value);
  }
  std::vector<ScriptLine> lines;
  for (const auto& field : config.fields) {
    if (listed.contains(field.key)) continue;  // a list of names, not a script
    const auto kind = kind_of_key(keys, field.key, listed);
    if (!kind) continue;
    for (const auto& element : split_list(field.value)) {
      auto words = words_of(element);
      if (words.empty() || words[0] == "null") continue;
      lines.push_back({*kind, field.key, field.physical_line, std::move(words)});
    }
  }
  return lines;
}

KindMatch match_stage_kind(const std::vector<ScriptLine>& lines, const std::vector<std::string>& args,
                           const std::string& log) {
  KindMatch best;
  std::size_t best_length = 0;
  for (const auto& line : lines) {
    const std::size_t length = occurrence(line.words, args);
    if (length > best_length) {
      best = {line.kind, &line};
      best_length = length;
    }
  }
  if (!best.line) best.kind = kind_from_log_name(log);
  return best;
}

}  // namespace tipc::plan
