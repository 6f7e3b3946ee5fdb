#pragma once
// Reading a positional chain config (paddle2onnx_params, serving_params) the way the chains'
// runners read it: line L of the file is the runner's `lines[L-1]`, whatever its key says. A
// key that is not the one the runner expects at that position is an error naming the file,
// the line and the key, instead of the wrong value silently reaching the wrong flag.
#include <string>
#include <string_view>
#include <vector>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "plan/plan.h"
#include "plan/planner.h"

namespace tipc::plan {

class ChainLines {
 public:
  // `chain`: the config's chain (configs/chains.yaml), whose script_keys name its script lines.
  ChainLines(const config::TrainInferConfig& config, const dialect::Chain& chain) : config_(config), chain_(chain) {}

  const dialect::Chain& chain() const { return chain_; }

  // The value of logical line `line` once its key matches one of `keys` (globs, as
  // fnmatch reads them: "--model_dir", "*use_gpu*"), trimmed of blanks as the runner's
  // `echo ${value}` trims it.
  Result<std::string> value(int line, const std::vector<std::string>& keys) const;
  // The key of logical line `line`, checked the same way.
  Result<std::string> key(int line, const std::vector<std::string>& keys) const;
  // A value that must not be empty or "null" (a script to run).
  Result<std::string> required_value(int line, const std::vector<std::string>& keys) const;
  // The value of logical line `line`, a script of that kind: its key must be one the chain's
  // script_keys give that kind (2onnx, web_service, pipline or pipeline, ...).
  Result<std::string> script(int line, StageKind kind) const;
  // The same, not empty or "null".
  Result<std::string> required_script(int line, StageKind kind) const;
  // An error at logical line `line` (its physical line and key).
  Error error_at(int line, const std::string& message) const;

 private:
  Result<void> check_key(int line, const std::vector<std::string>& keys) const;
  const config::TrainInferConfig& config_;
  const dialect::Chain& chain_;
};

// The runners' func_set_params: " " when the key or the value is "null" or the value is
// empty (so the command keeps a gap where it would be), else "key=value".
std::string set_param(std::string_view key, std::string_view value);

// "null" or empty: the runners' word for "not given".
bool is_null(std::string_view value);

// The runners' inference log names end in this: these chains' models are fp32, and the
// ground-truth check (compare-results, like TIPC's compare_results.py) takes an inference
// log's precision from its file name (`paddle2onnx_infer_cpu_fp32.log`, not the runners'
// `paddle2onnx_infer_cpu.log`).
inline constexpr const char* kInferLogSuffix = "_fp32.log";

// What every positional chain config starts with (model_name, python), and the plan around
// its stages: LOG is test_tipc/output/<model>/<MODE>, the status lines the runners' format,
// written to the chain's first status log; MODE is the chain's one mode.
struct ChainStart {
  Plan plan;
  std::string python;  // --python, else the config's interpreter word
};
// The chain's name is the plan's; another MODE than the chain's first is an error.
Result<ChainStart> start_chain_plan(const ChainLines& lines, const PlanOptions& options);

// A stage that runs the command string the runner evaluates (`prog args > LOG 2>&1 `): argv
// is the string split as eval splits it, redirections removed; the string is its status-line
// command; `log` (relative to the run directory) receives its output.
Result<Stage> stage_from_command(std::string id, StageKind kind, const std::string& command, std::string cwd,
                                 std::string log);

}  // namespace tipc::plan
