#include "plan/stage_kind_match.h"

#include <algorithm>
#include <filesystem>

#include "core/split_list.h"
#include "plan/shell_words.h"

namespace tipc::plan {
namespace {

bool ends_with(const std::string& text, const std::string& tail) { return text.ends_with(tail); }

std::optional<StageKind> family_of(const std::string& key, const std::vector<std::string>& trainers) {
  // The other chains' script lines: conversions, the server, its clients, the C++ demo's command.
  if (key == "2onnx" || key == "trans_model") return StageKind::kConvert;
  if (key == "web_service") return StageKind::kService;
  if (key == "pipline" || key == "http_client" || key == "cpp_client" || key == "inference_cmd") return StageKind::kInfer;
  if (key == "inference") return StageKind::kInfer;
  if (key == "eval") return StageKind::kEval;
  if (ends_with(key, "_export") || key.starts_with("export") || key == "kl_quant") return StageKind::kExport;
  if (key == "trainer") return std::nullopt;  // the list of names, not a script
  if (ends_with(key, "_train") || std::find(trainers.begin(), trainers.end(), key) != trainers.end()) {
    return StageKind::kTrain;
  }
  return std::nullopt;
}

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

std::vector<ScriptLine> script_lines(const config::TrainInferConfig& config) {
  std::vector<std::string> trainers;
  for (const auto& field : config.fields) {
    if (field.key == "trainer") trainers = split_list(field.value);
  }
  std::vector<ScriptLine> lines;
  for (const auto& field : config.fields) {
    const auto kind = family_of(field.key, trainers);
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
