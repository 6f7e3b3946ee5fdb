#pragma once
// Which kind of stage a traced call is: its arguments are matched against the script
// values of the config's lines, found by their keys as the chain's script_keys table
// (configs/chains.yaml) names them (trainer names and *_train keys, eval, *_export keys,
// inference; the other chains' 2onnx / trans_model, web_service and client lines), never by
// fixed line number.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/train_infer_config.h"
#include "dialect/chains.h"
#include "plan/plan.h"

namespace tipc::plan {

// One `|` element of a script line's value, split into words.
struct ScriptLine {
  StageKind kind = StageKind::kOther;
  std::string key;
  int physical_line = 0;
  std::vector<std::string> words;
};

// The config's script lines: each `|` element of a line whose key the table names.
std::vector<ScriptLine> script_lines(const config::TrainInferConfig& config,
                                     const std::vector<dialect::ScriptKey>& keys);

// The kind of stage a script under `key` starts, by the first entry of the table that names
// it; `listed` holds, for each "@KEY" entry's KEY, the names the config's KEY line lists.
std::optional<StageKind> kind_of_key(const std::vector<dialect::ScriptKey>& keys, const std::string& key,
                                     const std::map<std::string, std::vector<std::string>>& listed);

struct KindMatch {
  StageKind kind = StageKind::kOther;
  const ScriptLine* line = nullptr;  // nullptr: no script line matched
};

// The script line whose words occur longest in `args` (the program and its arguments) (the last word may be cut, D3 in docs/reference-runner.md);
// without one, a kind named by the log's file name (`..._export_0.log`), else kOther.
KindMatch match_stage_kind(const std::vector<ScriptLine>& lines, const std::vector<std::string>& args,
                           const std::string& log);

}  // namespace tipc::plan
