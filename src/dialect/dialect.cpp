#include "dialect/dialect.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "dialect/layout.h"

namespace tipc::dialect {
namespace fs = std::filesystem;
namespace {

// The named inference skip rules the planner implements (docs/config-format.md).
const std::string kSkipRules[] = {"cpu_no_mkldnn_fp16",     "cpu_quant_needs_int8",         "cpu_no_mkldnn_quant",
                                  "cpu_nonquant_needs_fp32", "gpu_int8_needs_quant",         "gpu_fp16_int8_need_trt",
                                  "gpu_quant_needs_trt_non_int8", "gpu_precision_true_needs_trt", "run_modes"};

// Reading one YAML file into the struct; the first problem found is reported with
// the file, the YAML line and the key.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  // parent[key], tolerating an absent parent (an optional block left out).
  static YAML::Node child(const YAML::Node& parent, const std::string& key) {
    if (!parent.IsDefined() || !parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    return parent[key];
  }

  [[noreturn]] void fail_at(const YAML::Node& node, const std::string& key, const std::string& message) const {
    const int line = node.IsDefined() ? node.Mark().line + 1 : 0;
    throw tipc::Error::at(path_, line, key, fmt::format("key '{}': {}", key, message));
  }

  std::string str(const YAML::Node& parent, const std::string& key, std::optional<std::string> fallback = {}) const {
    const YAML::Node node = child(parent, key);
    if (!node) {
      if (fallback) return *fallback;
      fail_at(parent, key, "missing");
    }
    if (!node.IsScalar()) fail_at(node, key, "expected a string");
    return node.as<std::string>();
  }

  int integer(const YAML::Node& parent, const std::string& key, std::optional<int> fallback = {}) const {
    const YAML::Node node = child(parent, key);
    if (!node) {
      if (fallback) return *fallback;
      fail_at(parent, key, "missing");
    }
    try {
      return node.as<int>();
    } catch (const YAML::Exception&) {
      fail_at(node, key, "expected an integer");
    }
  }

  bool boolean(const YAML::Node& parent, const std::string& key, bool fallback) const {
    const YAML::Node node = child(parent, key);
    if (!node) return fallback;
    try {
      return node.as<bool>();
    } catch (const YAML::Exception&) {
      fail_at(node, key, "expected true or false");
    }
  }

  // A string or a list of strings.
  std::vector<std::string> strings(const YAML::Node& parent, const std::string& key) const {
    const YAML::Node node = child(parent, key);
    if (!node) return {};
    if (node.IsScalar()) return {node.as<std::string>()};
    if (!node.IsSequence()) fail_at(node, key, "expected a string or a list of strings");
    std::vector<std::string> out;
    for (const auto& item : node) {
      if (!item.IsScalar()) fail_at(item, key, "expected a list of strings");
      out.push_back(item.as<std::string>());
    }
    return out;
  }

  std::string one_of(const YAML::Node& parent, const std::string& key, const std::vector<std::string>& allowed,
                     const std::string& fallback) const {
    const std::string value = str(parent, key, fallback);
    for (const auto& a : allowed) {
      if (a == value) return value;
    }
    fail_at(child(parent, key), key, fmt::format("'{}' is not one of: {}", value, fmt::join(allowed, ", ")));
  }

  // A misspelt key would silently fall back to a default; reject it instead.
  void only_keys(const YAML::Node& node, const std::string& where, std::initializer_list<const char*> allowed) const {
    if (!node.IsDefined() || !node.IsMap()) return;
    for (const auto& item : node) {
      const std::string key = item.first.as<std::string>();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        fail_at(item.first, key, fmt::format("unknown key in {}", where));
      }
    }
  }

  StageTemplate stage(const YAML::Node& parent, const std::string& key) const {
    const YAML::Node node = child(parent, key);
    if (!node || !node.IsMap()) fail_at(node ? node : parent, key, "expected a map with command and log");
    only_keys(node, key, {"command", "evaluated", "log", "status_log", "trainer_log", "loops", "skip", "results_dir", "when_key_35"});
    StageTemplate t;
    t.command = str(node, "command");
    t.evaluated = str(node, "evaluated", std::string("{cmd}"));
    t.log = str(node, "log");
    t.status_log = str(node, "status_log", std::string("{stage_log}"));
    t.trainer_log = str(node, "trainer_log", std::string());
    return t;
  }

  InferBranch infer_branch(const YAML::Node& parent, const std::string& key) const {
    InferBranch b;
    b.stage = stage(parent, key);
    const YAML::Node node = child(parent, key);
    b.loops = strings(node, "loops");
    b.skip = strings(node, "skip");
    for (const auto& rule : b.skip) {
      if (std::find(std::begin(kSkipRules), std::end(kSkipRules), rule) == std::end(kSkipRules)) {
        fail_at(child(node, "skip"), "skip", fmt::format("unknown skip rule '{}'", rule));
      }
    }
    b.results_dir = str(node, "results_dir", std::string());
    return b;
  }

  Dialect read(const YAML::Node& root) const;

 private:
  std::string path_;
};

config::SplitRules split_rules(const Reader& r, const YAML::Node& root) {
  config::SplitRules rules;
  const std::string split = r.one_of(root, "compat_split", {"second_colon", "first_colon"}, "second_colon");
  rules.split = split == "second_colon" ? config::ValueSplit::kSecondColon : config::ValueSplit::kFirstColon;
  rules.whole_line_value_without_colon = split == "first_colon";
  rules.echo_swallows_options = true;
  return rules;
}

std::vector<TrainerRule> trainer_rules(const Reader& r, const YAML::Node& root) {
  std::vector<TrainerRule> rules;
  for (const auto& node : root["trainers"]) {
    TrainerRule rule;
    const std::string match = r.one_of(node, "match", {"key_equals", "key_glob", "to_static"}, "key_equals");
    rule.match = match == "key_equals" ? TrainerRule::Match::kKeyEquals
                 : match == "key_glob" ? TrainerRule::Match::kKeyGlob
                                       : TrainerRule::Match::kToStatic;
    rule.train_line = r.integer(node, "train_line", 16);
    rule.export_line = r.integer(node, "export_line");
    rule.quant = r.boolean(node, "quant", false);
    rules.push_back(rule);
  }
  return rules;
}

LookupSlot lookup_slot(const Reader& r, const YAML::Node& node) {
  r.only_keys(node, "a slot", {"by", "cases", "default", "replace"});
  LookupSlot slot;
  slot.by = r.str(node, "by", std::string("autocast"));
  for (const auto& c : node["cases"]) slot.cases.emplace_back(c.first.as<std::string>(), c.second.as<std::string>());
  slot.fallback = r.str(node, "default", std::string(" "));
  if (const YAML::Node replace = node["replace"]) {
    if (!replace.IsSequence() || replace.size() != 2) r.fail_at(replace, "replace", "expected [from, to]");
    slot.replace.emplace(replace[0].as<std::string>(), replace[1].as<std::string>());
  }
  return slot;
}

std::map<int, int> layout(const Reader& r, const YAML::Node& root) {
  std::map<int, int> out;
  for (const auto& item : root["layout"]) {
    const std::string name = item.first.as<std::string>();
    const auto position = reference_position(name);
    if (!position) r.fail_at(item.first, name, fmt::format("unknown position in layout (known: {})", layout_names()));
    out[*position] = r.integer(root["layout"], name);
  }
  return out;
}

std::vector<std::pair<std::string, LookupSlot>> lookup_slots(const Reader& r, const YAML::Node& root,
                                                              const std::string& key) {
  std::vector<std::pair<std::string, LookupSlot>> slots;
  for (const auto& item : root[key]) slots.emplace_back(item.first.as<std::string>(), lookup_slot(r, item.second));
  return slots;
}

Dialect Reader::read(const YAML::Node& root) const {
  if (!root.IsMap()) fail_at(root, "(document)", "expected a map");
  only_keys(root, "the dialect",
            {"name", "markers", "known_modes", "compat_split", "epoch_batch", "use_gpu_pairing", "trainers",
             "unknown_trainer", "to_static", "ips_threshold", "devices", "train_env", "max_physical_lines", "log_dir",
             "save_log", "save_log_multi_node", "weights", "weights_subdir", "export_without_weights",
             "checkpoint_fallback", "eval_weights_key_line", "pact_pretrain_from_norm", "lookup_slots", "infer_slots", "model_suffix", "layout", "autocast",
             "train", "launcher", "eval", "export", "onnx_export", "infer", "whole_infer", "status_line", "banner",
             "anchors"});
  only_keys(child(root, "devices"), "devices",
            {"set_on_gpu_select", "apply_before_eval", "apply_before_infer", "unset_after_infer", "unset_after_trainer",
             "unset_before_train", "whole_list", "ips_first_gpu"});
  only_keys(child(root, "train"), "train", {"single", "multi", "multi_node"});
  only_keys(child(root, "infer"), "infer", {"model_dir", "data_line", "cwd", "cpu", "gpu"});
  only_keys(child(root, "whole_infer"), "whole_infer",
            {"style", "modes", "export", "model_dir", "export_output", "data_line", "infer_cwd"});
  Dialect d;
  d.name = str(root, "name");
  d.source_file = path_;
  d.markers = strings(root, "markers");
  d.known_modes = strings(root, "known_modes");
  d.compat_split = split_rules(*this, root);
  d.epoch_batch = one_of(root, "epoch_batch", {"mode_select", "clas", "plain"}, "mode_select");
  d.use_gpu_pairing =
      one_of(root, "use_gpu_pairing", {"per_position", "whole", "whole_false_for_cpu", "none"}, "per_position");
  d.layout = layout(*this, root);
  if (root["autocast"]) d.autocast = lookup_slot(*this, root["autocast"]);
  d.trainer_rules = trainer_rules(*this, root);
  d.unknown_trainer_uses_norm = one_of(root, "unknown_trainer", {"norm", "skip"}, "norm") == "norm";

  const YAML::Node ts = root["to_static"];
  if (ts) {
    const std::string source = one_of(ts, "source", {"none", "header_lookup", "line"}, "none");
    d.to_static.source = source == "header_lookup" ? ToStatic::Source::kHeaderLookup
                         : source == "line"        ? ToStatic::Source::kLine
                                                   : ToStatic::Source::kNone;
    d.to_static.line = integer(ts, "line", 0);
    d.to_static.join = str(ts, "join", std::string("  "));
    d.to_static.own_slot = boolean(ts, "own_slot", false);
  }
  d.ips_threshold = integer(root, "ips_threshold", 15);

  const YAML::Node dev = root["devices"];
  d.devices.set_on_gpu_select = boolean(dev, "set_on_gpu_select", false);
  d.devices.apply_before_eval = boolean(dev, "apply_before_eval", false);
  d.devices.apply_before_infer = boolean(dev, "apply_before_infer", true);
  d.devices.unset_after_infer = boolean(dev, "unset_after_infer", false);
  d.devices.unset_after_trainer = boolean(dev, "unset_after_trainer", false);
  d.devices.unset_before_train = boolean(dev, "unset_before_train", false);
  d.devices.whole_list = boolean(dev, "whole_list", false);
  d.devices.ips_first_gpu = boolean(dev, "ips_first_gpu", false);

  d.log_dir = str(root, "log_dir");
  d.save_log = str(root, "save_log");
  d.save_log_multi_node = str(root, "save_log_multi_node");
  d.weights = str(root, "weights");
  for (const auto& node : root["weights_subdir"]) d.weights_subdir.push_back({str(node, "glob"), str(node, "value")});
  d.export_without_weights = strings(root, "export_without_weights");
  if (root["checkpoint_fallback"]) d.checkpoint_fallback = str(root, "checkpoint_fallback");
  d.eval_weights_key_line = integer(root, "eval_weights_key_line", 10);
  d.pact_pretrain_from_norm = boolean(root, "pact_pretrain_from_norm", false);

  const YAML::Node train = root["train"];
  if (!train) fail_at(root, "train", "missing");
  d.train_single = stage(train, "single");
  d.train_multi = stage(train, "multi");
  d.train_multi_node = stage(train, "multi_node");
  d.launcher.name = str(root, "launcher");  // resolved by load_dialect against launchers.yaml
  d.eval = stage(root, "eval");
  d.export_ = stage(root, "export");
  if (root["onnx_export"]) {
    d.onnx_export = stage(root, "onnx_export");
    d.onnx_export_key = str(root["onnx_export"], "when_key_35", std::string("export_onnx"));
  }

  d.lookup_slots = lookup_slots(*this, root, "lookup_slots");
  d.infer_slots = lookup_slots(*this, root, "infer_slots");
  for (const auto& item : root["train_env"]) d.train_env[item.first.as<std::string>()] = item.second.as<std::string>();
  d.max_physical_lines = integer(root, "max_physical_lines", 0);
  for (const auto& node : root["model_suffix"]) {
    d.model_suffix.push_back({strings(node, "models"), strings(node, "autocast"), str(node, "text")});
  }

  const YAML::Node infer = root["infer"];
  if (!infer) fail_at(root, "infer", "missing");
  d.infer_model_dir = str(infer, "model_dir");
  d.infer_data_line = integer(infer, "data_line", 12);
  d.infer_cwd = str(infer, "cwd", std::string("."));
  d.infer_cpu = infer_branch(infer, "cpu");
  d.infer_gpu = infer_branch(infer, "gpu");

  const YAML::Node whole = root["whole_infer"];
  if (whole) {
    d.whole_infer.style = one_of(whole, "style", {"export_list", "kl_quant", "mode_list", "none"}, "none");
    d.whole_infer.modes = strings(whole, "modes");
    if (whole["export"]) d.whole_infer.export_stage = stage(whole, "export");
    d.whole_infer.model_dir = str(whole, "model_dir", std::string("{model_i}"));
    d.whole_infer.export_output = str(whole, "export_output", std::string("{model_i}"));
    d.whole_infer.data_line = integer(whole, "data_line", 48);
    d.whole_infer.infer_cwd = str(whole, "infer_cwd", std::string("."));
  }
  d.status_line = str(root, "status_line");
  d.banner = str(root, "banner", std::string());

  for (const auto& node : root["anchors"]) {
    Anchor a;
    a.line = integer(node, "line");
    a.keys = strings(node, "key");
    a.header = str(node, "header", std::string());
    if (a.keys.empty() == a.header.empty()) fail_at(node, "anchors", "each anchor needs exactly one of key or header");
    d.anchors.push_back(a);
  }
  return d;
}

}  // namespace

Result<Dialect> load_dialect_file(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    return Reader(path).read(root);
  } catch (const tipc::Error& e) {
    return fail(e);
  } catch (const YAML::BadFile&) {
    return fail(Error::at(path, 0, "", "cannot open the dialect file: " + errno_text(errno)));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line + 1, "", e.msg));
  }
}

Result<Dialect> load_dialect(const std::string& directory, const std::string& name) {
  const fs::path file = fs::path(directory) / (name + ".yaml");
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    std::vector<std::string> known;
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
      if (entry.path().extension() == ".yaml") known.push_back(entry.path().stem().string());
    }
    std::sort(known.begin(), known.end());
    return fail(Error::plain(fmt::format("unknown dialect '{}' (known: {})", name, fmt::join(known, ", "))));
  }
  auto dialect = load_dialect_file(file.string());
  if (!dialect) return dialect;
  if (dialect->name != name) {
    return fail(Error::at(file.string(), 1, "name",
                          fmt::format("key 'name': '{}' differs from the file name '{}'", dialect->name, name)));
  }
  auto launcher = load_launcher(launchers_file(directory), dialect->launcher.name);
  if (!launcher) return fail(launcher.error());
  dialect->launcher = *launcher;
  return dialect;
}

namespace {

// The first of the dialect's markers that exists under the root, as its message shows it
// (a directory with a trailing /); "" when none does.
std::string found_marker(const Dialect& dialect, const fs::path& root, bool inside_test_tipc) {
  for (const auto& marker : dialect.markers) {
    std::error_code ec;
    if ((marker.rfind("test_tipc/", 0) == 0) != inside_test_tipc || !fs::exists(root / marker, ec)) continue;
    return fs::is_directory(root / marker, ec) ? marker + "/" : marker;
  }
  return "";
}

struct MarkerMatch {
  std::string dialect;
  std::string marker;
};

std::string matches_text(const std::vector<MarkerMatch>& matches) {
  std::vector<std::string> parts;
  for (const auto& m : matches) parts.push_back(fmt::format("{} ({})", m.dialect, m.marker));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Why detection stopped, with every candidate: a person can then name one.
Error undecided(const std::string& root, const std::string& why, const std::vector<Dialect>& dialects) {
  std::string text = why + "; the dialects and their markers:";
  for (const auto& d : dialects) {
    text += fmt::format("\n  {:<16} {}", d.name, d.markers.empty() ? "(none)" : fmt::format("{}", fmt::join(d.markers, ", ")));
  }
  text += "\nname the dialect with --dialect NAME, or with `dialect: NAME` in test_tipc/tipc-run.yaml";
  return Error::at(root, 0, "", text);
}

Result<std::vector<Dialect>> shipped_dialects(const std::string& directory) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  if (ec) return fail(Error::plain(fmt::format("cannot list dialect directory {}: {}", directory, ec.message())));
  std::sort(files.begin(), files.end());
  std::vector<Dialect> dialects;
  for (const auto& file : files) {
    auto d = load_dialect_file(file.string());
    if (!d) return fail(d.error());
    dialects.push_back(std::move(*d));
  }
  return dialects;
}

}  // namespace

Result<DialectChoice> detect_dialect(const std::string& directory, const std::string& repo_root) {
  auto dialects = shipped_dialects(directory);
  if (!dialects) return fail(dialects.error());
  std::vector<MarkerMatch> outside, inside;  // markers outside test_tipc/ and inside it
  for (const auto& d : *dialects) {
    if (auto marker = found_marker(d, repo_root, false); !marker.empty()) outside.push_back({d.name, marker});
    else if (auto weak = found_marker(d, repo_root, true); !weak.empty()) inside.push_back({d.name, weak});
  }
  const std::vector<MarkerMatch>& deciding = outside.empty() ? inside : outside;
  if (deciding.empty()) {
    return fail(undecided(repo_root, "no dialect marker found here (a test_tipc/ copied without the repository?)",
                          *dialects));
  }
  if (deciding.size() > 1) {
    return fail(undecided(repo_root, "markers of several dialects found: " + matches_text(deciding), *dialects));
  }
  DialectChoice choice{deciding.front().dialect,
                       fmt::format("marker {} found in {}", deciding.front().marker, repo_root), ""};
  if (!outside.empty() && !inside.empty()) {
    choice.source += fmt::format("; {} matched too, by a file inside test_tipc/, which every copied test_tipc/ has",
                                 matches_text(inside));
  }
  if (outside.empty()) {
    choice.doubt = fmt::format("the dialect {} rests on {} alone, a file every copied test_tipc/ has; if this is "
                               "not a {} repository, name the dialect with --dialect",
                               choice.name, deciding.front().marker, choice.name);
  }
  return choice;
}

// Installed beside the binary (bin/tipc-run -> share/tipc-run/dialects) first; the source
// tree's configs/dialects serves a binary run from its build directory. When neither
// exists, the installed path, so that the error names where an installed binary looks.
// launchers.yaml is found from the same directory (launchers_file).
std::string default_dialect_directory() {
  if (const char* env = std::getenv("TIPC_DIALECT_DIR")) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path installed = (self.parent_path() / "../share/tipc-run/dialects").lexically_normal();
  if (!ec && fs::is_directory(installed, ec)) return installed.string();
  if (fs::is_directory(TIPC_SOURCE_DIALECT_DIR, ec)) return TIPC_SOURCE_DIALECT_DIR;
  return installed.string();
}

}  // namespace tipc::dialect
