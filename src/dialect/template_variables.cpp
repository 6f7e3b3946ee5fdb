#include "dialect/template_variables.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace tipc::dialect {
namespace {

struct PlannerVariable {
  std::string_view name;
  std::string_view old_name;  // what dialect files called it before it had its name; "" when nothing else
};

// Sorted by name, for binary search; docs/config-format.md, "Template slots and variables",
// says what each holds. A name ending in `_arg` holds E(key, value): `key=value`, or one space.
constexpr PlannerVariable kPlannerVariables[] = {
    {"autocast", ""},
    {"autocast_arg", "ac_kv"},
    {"batch_arg", "batch"},
    {"batch_size", ""},
    {"batch_size_arg", "ib"},
    {"benchmark_arg", "bench"},
    {"command", "cmd"},
    {"epoch_arg", "epoch"},
    {"epoch_value", ""},
    {"eval_extra_arg", "eval_extra"},
    {"eval_script", ""},
    {"eval_weights_arg", "eval_w"},
    {"export_script", ""},
    {"export_weights_arg", "exp_w"},
    {"exported_model", "model_exported"},
    {"filename_arg", "fname"},
    {"gpu_count", ""},
    {"gpus", ""},
    {"infer_data", ""},
    {"infer_data_arg", "data"},
    {"infer_extra2_arg", "iex2"},
    {"infer_extra_arg", "iex"},
    {"infer_gpu", ""},
    {"infer_model", "model_i"},
    {"infer_model_dir", ""},
    {"infer_model_dir_arg", "model_dir_slot"},
    {"infer_model_index", "index"},
    {"infer_model_parent", "model_parent"},
    {"infer_model_weights_arg", "wi_weights"},
    {"infer_script", ""},
    {"infer_tag", ""},
    {"infer_use_gpu", "ug"},
    {"infer_use_gpu_key", "ugk"},
    {"inference_subdir", ""},
    {"ips", ""},
    {"kl_quant_script", "kl_script"},
    {"launcher_args", "launch"},
    {"log_dir", "LOG"},
    {"master_addr", ""},
    {"mkldnn", ""},
    {"mkldnn_arg", "mkl"},
    {"mkldnn_arg_always", "mkl_always"},
    {"mode", ""},
    {"model_name", "model"},
    {"model_name_pp_lowered", "model_pp"},
    {"model_suffix", ""},
    {"nodes", ""},
    {"precision", ""},
    {"precision_arg", "prec"},
    {"pretrained_arg", "pretrain"},
    {"pretrained_or_norm_weights_arg", "pre"},
    {"python", "py"},
    {"repo_root", ""},
    {"results_dir_arg", "res"},
    {"save_dir_arg", "save"},
    {"save_inference_dir", ""},
    {"save_inference_dir_arg", "exp_dir"},
    {"save_inference_dir_key", "exp_dir_key"},
    {"save_log", ""},
    {"save_log_path_arg", "log0"},
    {"stage_log", ""},
    {"status_log", ""},
    {"status_word", "word"},
    {"threads", ""},
    {"threads_arg", "thr"},
    {"to_static_text", "ts"},
    {"train_extra_arg", "extra"},
    {"train_model_name", ""},
    {"train_script", ""},
    {"trainer", ""},
    {"trt", ""},
    {"trt_arg", "trt_slot"},
    {"use_gpu_arg", "use_gpu"},
    {"weights", ""},
    {"weights_subdir", ""},
};

constexpr bool by_name(const PlannerVariable& a, const PlannerVariable& b) { return a.name < b.name; }

// The line variables: key_N, value_N and arg_N are the key, value and E(key, value) of
// logical line N; arg_N was set_N.
constexpr std::string_view kLinePrefixes[] = {"key_", "value_", "arg_"};
constexpr std::string_view kOldArgPrefix = "set_";

// The N of `prefix`N, when the rest of `name` is a line number.
bool numbered(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return false;
  return all_digits(name.substr(prefix.size()));
}

bool is_line_variable(std::string_view name) {
  return std::any_of(std::begin(kLinePrefixes), std::end(kLinePrefixes),
                     [&](std::string_view prefix) { return numbered(name, prefix); });
}

}  // namespace

bool is_planner_variable(std::string_view name) {
  static_assert(std::is_sorted(std::begin(kPlannerVariables), std::end(kPlannerVariables), by_name));
  return std::binary_search(std::begin(kPlannerVariables), std::end(kPlannerVariables), PlannerVariable{name, ""},
                            by_name) ||
         is_line_variable(name);
}

std::optional<std::string> current_variable_name(std::string_view old_name) {
  if (numbered(old_name, kOldArgPrefix)) return "arg_" + std::string(old_name.substr(kOldArgPrefix.size()));
  const auto* found =
      std::find_if(std::begin(kPlannerVariables), std::end(kPlannerVariables),
                   [&](const PlannerVariable& v) { return !old_name.empty() && v.old_name == old_name; });
  if (found == std::end(kPlannerVariables)) return std::nullopt;
  return std::string(found->name);
}

std::pair<std::string, std::vector<VariableRename>> with_current_variable_names(std::string_view text) {
  std::string out;
  std::vector<VariableRename> renames;
  std::size_t done = 0;  // text[0, done) is in `out`
  for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    const std::string_view name = text.substr(open + 1, close - open - 1);
    if (auto current = current_variable_name(name)) {
      out.append(text.substr(done, open + 1 - done)).append(*current);
      done = close;
      renames.push_back({std::string(name), std::move(*current)});
    }
    open = close;
  }
  out.append(text.substr(done));
  return {std::move(out), std::move(renames)};
}

std::optional<std::vector<std::string>> template_variable_names(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) return std::nullopt;
    names.emplace_back(text.substr(open + 1, close - open - 1));
    open = close;
  }
  return names;
}

}  // namespace tipc::dialect
