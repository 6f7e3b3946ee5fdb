#include "dialect/template_variables.h"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace tipc::dialect {
namespace {

// Sorted, for binary search; docs/config-format.md, "Template variables", says what each holds.
constexpr std::string_view kPlannerVariables[] = {
    "LOG",           "ac_kv",         "autocast",        "batch",          "batch_size",    "bench",
    "cmd",           "data",          "epoch",           "epoch_value",    "eval_extra",    "eval_script",
    "eval_w",        "exp_dir",       "exp_dir_key",     "exp_w",          "export_script", "extra",
    "fname",         "gpu_count",     "gpus",            "ib",             "iex",           "iex2",
    "index",         "infer_data",    "infer_gpu",       "infer_model_dir", "infer_script", "infer_tag",
    "inference_subdir", "ips",        "kl_script",       "launch",         "log0",          "master_addr",
    "mkl",           "mkl_always",    "mkldnn",          "mode",           "model",         "model_dir_slot",
    "model_exported", "model_i",      "model_parent",    "model_pp",       "model_suffix",  "nodes",
    "pre",           "prec",          "precision",       "pretrain",       "py",            "repo_root",
    "res",           "save",          "save_inference_dir", "save_log",    "stage_log",     "status_log",
    "thr",           "threads",       "train_model_name", "train_script",  "trainer",       "trt",
    "trt_slot",      "ts",            "ug",              "ugk",            "use_gpu",       "weights",
    "weights_subdir", "wi_weights",   "word",
};

constexpr std::string_view kInferenceLoops[] = {"batch_size", "mkldnn", "precision", "threads", "trt"};

// key_N, value_N, set_N: the key, value and `key=value` of logical line N.
bool is_line_variable(std::string_view name) {
  for (std::string_view prefix : {"key_", "value_", "set_"}) {
    if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
    const std::string_view digits = name.substr(prefix.size());
    return std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); });
  }
  return false;
}

}  // namespace

bool is_planner_variable(std::string_view name) {
  static_assert(std::is_sorted(std::begin(kPlannerVariables), std::end(kPlannerVariables)));
  return std::binary_search(std::begin(kPlannerVariables), std::end(kPlannerVariables), name) || is_line_variable(name);
}

bool is_inference_loop(std::string_view name) {
  return std::find(std::begin(kInferenceLoops), std::end(kInferenceLoops), name) != std::end(kInferenceLoops);
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
