#include "dialect/dialect.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"
#include "core/locations.h"
#include "core/vocabulary.h"
#include "dialect/layout.h"
#include "dialect/template_variables.h"

namespace tipc::dialect {
namespace fs = std::filesystem;
namespace {

using Node = YAML::Node;

// One word of a closed vocabulary (dialect_words.h); `fallback` when the key is absent.
template <typename Enum, std::size_t N>
Enum one_word(config::YamlReader& r, const Node& parent, const std::string& key, const Enum (&all)[N], Enum fallback) {
  std::vector<std::string> words;
  for (const Enum member : all) words.emplace_back(to_string(member));
  return from_word(r.one_of(parent, key, words, to_string(fallback)), all).value_or(fallback);
}

// A word or a list of words of a closed vocabulary; each unknown one is a problem naming `what`.
template <typename Enum, std::size_t N>
std::vector<Enum> word_list(config::YamlReader& r, const Node& parent, const std::string& key, const Enum (&all)[N],
                            const char* what) {
  std::vector<Enum> out;
  for (const auto& word : r.strings(parent, key)) {
    if (const auto member = from_word(word, all))
      out.push_back(*member);
    else
      r.problem(r.child(parent, key), key, fmt::format("unknown {} '{}' (known: {})", what, word, known_words(all)));
  }
  return out;
}

// config::YamlReader that also keeps each template it reads with its place, so that the
// template's {variables} can be checked once the dialect's own slot names are known.
class DialectReader : public config::YamlReader {
 public:
  using YamlReader::YamlReader;

  std::string template_text(const Node& parent, const std::string& key, std::optional<std::string> fallback = {}) {
    std::string text = str(parent, key, fallback);
    if (const Node node = child(parent, key)) {
      text = current_names(node, key, text);
      templates_.push_back({node, key, text});
    }
    return text;
  }

  // The name of a variable (a slot's `by`), checked like a template that holds only it.
  std::string variable_name(const Node& parent, const std::string& key, std::string fallback) {
    std::string name = str(parent, key, fallback);
    if (const Node node = child(parent, key)) {
      name = current_name(node, key, name);
      templates_.push_back({node, key, "{" + name + "}"});
    }
    return name;
  }

  // A template that is a node's own text (a slot's case).
  std::string template_scalar(const Node& node, const std::string& key) {
    std::string text = current_names(node, key, scalar(node, key));
    templates_.push_back({node, key, text});
    return text;
  }

  // A variable's bare name (a slot's name or `by`), an old name written as its current one.
  std::string current_name(const Node& node, const std::string& key, const std::string& name) {
    auto current = current_variable_name(name);
    if (!current) return name;
    renamed_.push_back({config::yaml_line(node), key, {name, *current}});
    return *current;
  }

  // One warning for the file, naming every old variable name it uses with its current name
  // and the first line that uses it; none when it uses none.
  std::vector<Diagnostic> old_name_warnings(const std::string& path) const {
    if (renamed_.empty()) return {};
    std::vector<RenameUse> uses = renamed_;  // read in the loader's order, told in the file's
    std::stable_sort(uses.begin(), uses.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
    std::set<std::string> told;
    std::vector<std::string> parts;
    for (const auto& use : uses) {
      if (!told.insert(use.rename.old_name).second) continue;
      parts.push_back(
          fmt::format("{{{}}} is now {{{}}} (line {})", use.rename.old_name, use.rename.new_name, use.line));
    }
    return {{path, uses.front().line, uses.front().key,
             fmt::format("key '{}': old template variable names, still read: {}; rename them (docs/config-format.md, "
                         "\"Template slots and variables\")",
                         uses.front().key, fmt::join(parts, ", "))}};
  }

  // Every {name} of every template read is a variable of the planner or a slot of the dialect.
  void check_variables(const std::set<std::string>& slots) {
    for (const auto& use : templates_) {
      const auto names = template_variable_names(use.text);
      if (!names) problem(use.node, use.key, "a '{' that is not closed");
      for (const auto& name : names.value_or(std::vector<std::string>{})) {
        if (is_planner_variable(name) || slots.contains(name)) continue;
        problem(use.node, use.key,
                fmt::format("unknown variable {{{}}}: neither the planner's (docs/config-format.md) nor a slot of "
                            "this dialect",
                            name));
      }
    }
  }

 private:
  struct TemplateUse {
    Node node;
    std::string key;
    std::string text;
  };
  struct RenameUse {
    int line = 0;
    std::string key;
    VariableRename rename;
  };

  // `text` with its old variable names written as the current ones, each rename noted.
  std::string current_names(const Node& node, const std::string& key, const std::string& text) {
    auto [current, renames] = with_current_variable_names(text);
    for (auto& rename : renames) renamed_.push_back({config::yaml_line(node), key, std::move(rename)});
    return current;
  }

  std::vector<TemplateUse> templates_;
  std::vector<RenameUse> renamed_;
};

// A block left out is one problem, not one per key it should have held.
StageTemplate stage(DialectReader& r, const Node& parent, const std::string& key) {
  const Node node = r.section(parent, key);
  if (!node || !node.IsMap()) {
    if (parent.IsDefined())
      r.problem(node ? node : parent, key, node ? "expected a map with command and log" : "missing");
    return {};
  }
  StageTemplate t;
  t.command = r.template_text(node, "command");
  t.evaluated = r.template_text(node, "evaluated", std::string("{command}"));
  t.log = r.template_text(node, "log");
  t.status_log = r.template_text(node, "status_log", std::string("{stage_log}"));
  t.trainer_log = r.template_text(node, "trainer_log", std::string());
  return t;
}

InferBranch infer_branch(DialectReader& r, const Node& parent, const std::string& key) {
  InferBranch b;
  b.stage = stage(r, parent, key);
  const Node node = r.child(parent, key);
  b.loops = word_list(r, node, "loops", kAllInferenceLoops, "loop");
  b.skip = word_list(r, node, "skip", kAllSkipRules, "skip rule");
  b.results_dir = r.template_text(node, "results_dir", std::string());
  return b;
}

config::SplitRules split_rules(DialectReader& r, const Node& root) {
  config::SplitRules rules;
  const std::string split = r.one_of(root, "compat_split", {"second_colon", "first_colon"}, "second_colon");
  rules.split = split == "second_colon" ? config::ValueSplit::kSecondColon : config::ValueSplit::kFirstColon;
  rules.whole_line_value_without_colon = split == "first_colon";
  rules.echo_swallows_options = true;
  return rules;
}

std::vector<TrainerRule> trainer_rules(DialectReader& r, const Node& root) {
  std::vector<TrainerRule> rules;
  for (const auto& node : r.child(root, "trainers")) {
    r.check_keys(node, "a trainer rule");
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

LookupSlot lookup_slot(DialectReader& r, const Node& node) {
  r.check_keys(node, "a slot");
  LookupSlot slot;
  slot.by = r.variable_name(node, "by", std::string("autocast"));
  for (const auto& c : r.child(node, "cases"))
    slot.cases.emplace_back(r.scalar(c.first, "cases"), r.template_scalar(c.second, "cases"));
  slot.fallback = r.template_text(node, "default", std::string(" "));
  if (const Node replace = r.child(node, "replace")) {
    if (!replace.IsSequence() || replace.size() != 2)
      r.problem(replace, "replace", "expected [from, to]");
    else
      slot.replace.emplace(r.scalar(replace[0], "replace"), r.scalar(replace[1], "replace"));
  }
  return slot;
}

std::map<int, int> layout(DialectReader& r, const Node& root) {
  std::map<int, int> out;
  const Node node = r.child(root, "layout");
  for (const auto& item : node) {
    const std::string name = r.scalar(item.first, "layout");
    const auto position = reference_position(name);
    if (!position)
      r.problem(item.first, name, fmt::format("unknown position in layout (known: {})", layout_names()));
    else
      out[*position] = r.integer(node, name);
  }
  return out;
}

std::vector<std::pair<std::string, LookupSlot>> lookup_slots(DialectReader& r, const Node& root,
                                                             const std::string& key) {
  std::vector<std::pair<std::string, LookupSlot>> slots;
  // A slot may take a planner variable's name: it then replaces that variable (PaddleVideo's epoch).
  for (const auto& item : r.child(root, key)) {
    std::string name = r.current_name(item.first, key, r.scalar(item.first, key));  // read before the slot's `by`
    slots.emplace_back(std::move(name), lookup_slot(r, item.second));
  }
  return slots;
}

void read_to_static(DialectReader& r, const Node& root, ToStatic& out) {
  const Node ts = r.section(root, "to_static");
  if (!ts) return;
  const std::string source = r.one_of(ts, "source", {"none", "header_lookup", "line"}, "none");
  out.source = source == "header_lookup" ? ToStatic::Source::kHeaderLookup
               : source == "line"        ? ToStatic::Source::kLine
                                         : ToStatic::Source::kNone;
  out.line = r.integer(ts, "line", 0);
  out.join = r.str(ts, "join", std::string("  "));
  out.own_slot = r.boolean(ts, "own_slot", false);
}

void read_devices(DialectReader& r, const Node& root, DeviceEvents& out) {
  const Node dev = r.section(root, "devices");
  out.set_on_gpu_select = r.boolean(dev, "set_on_gpu_select", false);
  out.apply_before_eval = r.boolean(dev, "apply_before_eval", false);
  out.apply_before_infer = r.boolean(dev, "apply_before_infer", true);
  out.unset_after_infer = r.boolean(dev, "unset_after_infer", false);
  out.unset_after_trainer = r.boolean(dev, "unset_after_trainer", false);
  out.unset_before_train = r.boolean(dev, "unset_before_train", false);
  out.whole_list = r.boolean(dev, "whole_list", false);
  out.ips_first_gpu = r.boolean(dev, "ips_first_gpu", false);
}

// Where the runner's logs and models go, and which weights later stages read.
void read_paths(DialectReader& r, const Node& root, Dialect& d) {
  d.log_dir = r.template_text(root, "log_dir");
  d.save_log = r.template_text(root, "save_log");
  d.save_log_multi_node = r.template_text(root, "save_log_multi_node");
  d.weights = r.template_text(root, "weights");
  for (const auto& node : r.child(root, "weights_subdir")) {
    r.check_keys(node, "weights_subdir");
    d.weights_subdir.push_back({r.str(node, "glob"), r.str(node, "value")});
  }
  d.export_without_weights = r.strings(root, "export_without_weights");
  if (r.child(root, "checkpoint_fallback")) d.checkpoint_fallback = r.template_text(root, "checkpoint_fallback");
  d.eval_weights_key_line = r.integer(root, "eval_weights_key_line", 10);
  d.pact_pretrain_from_norm = r.boolean(root, "pact_pretrain_from_norm", false);
}

void read_stages(DialectReader& r, const Node& root, Dialect& d) {
  const Node train = r.section(root, "train");
  if (!train) r.problem(root, "train", "missing");  // and its three stages are not reported again
  d.train_single = stage(r, train, "single");
  d.train_multi = stage(r, train, "multi");
  d.train_multi_node = stage(r, train, "multi_node");
  d.launcher.name = r.str(root, "launcher");  // resolved by load_dialect against launchers.yaml
  d.eval = stage(r, root, "eval");
  d.export_ = stage(r, root, "export");
  if (r.child(root, "onnx_export")) {
    d.onnx_export = stage(r, root, "onnx_export");
    d.onnx_export_key = r.str(r.child(root, "onnx_export"), "when_key_35", std::string("export_onnx"));
  }
}

void read_infer(DialectReader& r, const Node& root, Dialect& d) {
  const Node infer = r.section(root, "infer");
  if (!infer) r.problem(root, "infer", "missing");
  d.infer_model_dir = infer ? r.template_text(infer, "model_dir") : "";
  d.infer_data_line = r.integer(infer, "data_line", 12);
  d.infer_cwd = r.str(infer, "cwd", std::string("."));
  d.infer_cpu = infer_branch(r, infer, "cpu");
  d.infer_gpu = infer_branch(r, infer, "gpu");
  const Node whole = r.section(root, "whole_infer");
  if (!whole) return;
  d.whole_infer.style = one_word(r, whole, "style", kAllWholeInferStyles, WholeInferStyle::kNone);
  d.whole_infer.modes = r.strings(whole, "modes");
  if (r.child(whole, "export")) d.whole_infer.export_stage = stage(r, whole, "export");
  d.whole_infer.model_dir = r.template_text(whole, "model_dir", std::string("{infer_model}"));
  d.whole_infer.export_output = r.template_text(whole, "export_output", std::string("{infer_model}"));
  d.whole_infer.data_line = r.integer(whole, "data_line", 48);
  d.whole_infer.infer_cwd = r.str(whole, "infer_cwd", std::string("."));
}

void read_slots_and_anchors(DialectReader& r, const Node& root, Dialect& d) {
  d.lookup_slots = lookup_slots(r, root, "lookup_slots");
  d.infer_slots = lookup_slots(r, root, "infer_slots");
  for (const auto& item : r.child(root, "train_env")) {
    d.train_env[r.scalar(item.first, "train_env")] = r.scalar(item.second, "train_env");
  }
  for (const auto& node : r.child(root, "model_suffix")) {
    r.check_keys(node, "model_suffix");
    d.model_suffix.push_back({r.strings(node, "models"), r.strings(node, "autocast"), r.str(node, "text")});
  }
  for (const auto& node : r.child(root, "anchors")) {
    r.check_keys(node, "an anchor");
    Anchor a;
    a.line = r.integer(node, "line");
    a.keys = r.strings(node, "key");
    a.header = r.str(node, "header", std::string());
    if (a.keys.empty() == a.header.empty())
      r.problem(node, "anchors", "each anchor needs exactly one of key or header");
    d.anchors.push_back(a);
  }
}

Dialect read_dialect(DialectReader& r, const Node& root, const std::string& path) {
  if (!root.IsMap()) r.problem(root, "(document)", "expected a map");
  r.check_keys(root, "the dialect");
  Dialect d;
  d.name = r.str(root, "name");
  d.source_file = path;
  d.markers = r.strings(root, "markers");
  d.known_modes = r.strings(root, "known_modes");
  d.compat_split = split_rules(r, root);
  d.epoch_batch = one_word(r, root, "epoch_batch", kAllEpochBatches, EpochBatch::kModeSelect);
  d.use_gpu_pairing = one_word(r, root, "use_gpu_pairing", kAllUseGpuPairings, UseGpuPairing::kPerPosition);
  d.layout = layout(r, root);
  if (r.child(root, "autocast")) d.autocast = lookup_slot(r, r.child(root, "autocast"));
  d.trainer_rules = trainer_rules(r, root);
  d.unknown_trainer_uses_norm = r.one_of(root, "unknown_trainer", {"norm", "skip"}, "norm") == "norm";
  read_to_static(r, root, d.to_static);
  d.ips_threshold = r.integer(root, "ips_threshold", 15);
  read_devices(r, root, d.devices);
  read_paths(r, root, d);
  read_stages(r, root, d);
  read_slots_and_anchors(r, root, d);
  d.max_physical_lines = r.integer(root, "max_physical_lines", 0);
  read_infer(r, root, d);
  d.status_line = r.template_text(root, "status_line");
  d.banner = r.template_text(root, "banner", std::string());
  return d;
}

}  // namespace

// Every problem of the file at once (config::YamlReader), each with its line and key.
Result<Dialect> load_dialect_file(const std::string& path) {
  const auto root = TRY(config::load_yaml_file(path, "dialect file"));
  DialectReader reader(path);
  Dialect dialect = read_dialect(reader, root, path);
  std::set<std::string> slots;
  for (const auto* list : {&dialect.lookup_slots, &dialect.infer_slots}) {
    for (const auto& slot : *list) slots.insert(slot.first);
  }
  reader.check_variables(slots);
  if (auto problems = reader.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  dialect.warnings = reader.old_name_warnings(path);
  return dialect;
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
  dialect->launcher = TRY(load_launcher(launchers_file(directory), dialect->launcher.name));
  return dialect;
}

// Installed for this binary (core/locations.h: <prefix>/share/tipc-run/dialects) first; the source
// tree's configs/dialects serves a binary run from its build directory. When neither
// exists, the installed path, so that the error names where an installed binary looks.
// launchers.yaml is found from the same directory launchers_file.
std::string default_dialect_directory() {
  if (const char* env = std::getenv("TIPC_DIALECT_DIR")) return env;
  std::error_code ec;
  const std::string installed = installed_data_directory() + "/dialects";
  if (fs::is_directory(installed, ec)) return installed;
  const std::string source = source_configs_directory() + "/dialects";
  if (fs::is_directory(source, ec)) return source;
  return installed;
}

}  // namespace tipc::dialect
