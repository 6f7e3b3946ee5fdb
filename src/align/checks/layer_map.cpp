#include "align/checks/layer_map.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "config/yaml_file.h"

namespace tipc::align {
namespace {

Error yaml_error(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& message) {
  return Error::at(file, config::yaml_line(node), key, key.empty() ? message : key + ": " + message);
}

Result<std::string> read_route(const std::string& file, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar() || node.Scalar().empty()) return fail(yaml_error(file, node, key, "expected a layer route"));
  return node.Scalar();
}

// A route, or a list of routes (PaDiff's ignore() takes a layer or a list).
Result<std::vector<RouteRule>> read_route_rules(const std::string& file, const YAML::Node& node,
                                                const std::string& key) {
  std::vector<RouteRule> rules;
  if (node.IsNull()) return rules;
  if (node.IsScalar()) {
    auto route = TRY(read_route(file, node, key));
    rules.push_back({route, config::yaml_line(node)});
    return rules;
  }
  if (!node.IsSequence()) return fail(yaml_error(file, node, key, "expected a route or a list of routes"));
  for (std::size_t i = 0; i < node.size(); ++i) {
    auto route = TRY(read_route(file, node[i], key + "[" + std::to_string(i) + "]"));
    rules.push_back({route, config::yaml_line(node[i])});
  }
  return rules;
}

Result<ClassRule> read_class_rule(const std::string& file, const YAML::Node& node, const std::string& key) {
  if (!node.IsMap()) return fail(yaml_error(file, node, key, "expected {under: ROUTE, class: NAME}"));
  ClassRule rule;
  rule.line = config::yaml_line(node);
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    auto value = TRY(read_route(file, entry.second, key + "." + name));
    if (name == "under")
      rule.under = value;
    else if (name == "class")
      rule.class_name = value;
    else
      return fail(yaml_error(file, entry.first, key + "." + name, "unknown key (expected under, class)"));
  }
  if (rule.under.empty()) return fail(yaml_error(file, node, key + ".under", "required key is missing"));
  return rule;
}

// One {under, class} map or a list of them.
Result<std::vector<ClassRule>> read_class_rules(const std::string& file, const YAML::Node& node,
                                                const std::string& key) {
  std::vector<ClassRule> rules;
  if (node.IsNull()) return rules;
  if (node.IsMap()) {
    auto rule = TRY(read_class_rule(file, node, key));
    rules.push_back(std::move(rule));
    return rules;
  }
  if (!node.IsSequence()) return fail(yaml_error(file, node, key, "expected a list of {under: ROUTE, class: NAME}"));
  for (std::size_t i = 0; i < node.size(); ++i) {
    auto rule = TRY(read_class_rule(file, node[i], key + "[" + std::to_string(i) + "]"));
    rules.push_back(std::move(rule));
  }
  return rules;
}

Result<IgnoreRules> read_ignore_rules(const std::string& file, const YAML::Node& node, const std::string& key) {
  IgnoreRules rules;
  if (node.IsNull()) return rules;
  if (!node.IsMap()) return fail(yaml_error(file, node, key, "expected a map of ignore rules"));
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    const std::string entry_key = key + "." + name;
    if (name == "ignore" || name == "ignore_recursively") {
      auto read = TRY(read_route_rules(file, entry.second, entry_key));
      (name == "ignore" ? rules.ignore : rules.ignore_recursively) = std::move(read);
    } else if (name == "ignore_class") {
      auto read = TRY(read_class_rules(file, entry.second, entry_key));
      rules.ignore_class = std::move(read);
    } else {
      return fail(
          yaml_error(file, entry.first, entry_key, "unknown key (expected ignore, ignore_recursively, ignore_class)"));
    }
  }
  return rules;
}

Result<std::vector<MappedPair>> read_pairs(const std::string& file, const YAML::Node& node) {
  std::vector<MappedPair> pairs;
  if (node.IsNull()) return pairs;
  if (!node.IsMap()) return fail(yaml_error(file, node, "map", "expected a map of DUMP_A route: DUMP_B route"));
  for (const auto& entry : node) {
    auto base = TRY(read_route(file, entry.first, "map"));
    auto raw = TRY(read_route(file, entry.second, "map." + base));
    pairs.push_back({base, raw, config::yaml_line(entry.first)});
  }
  return pairs;
}

// What the rules say about one layer.
enum class RuleEffect { kKeep, kIgnore, kIgnoreRecursively };

bool names(const std::vector<RouteRule>& rules, const std::string& route) {
  return std::any_of(rules.begin(), rules.end(), [&](const RouteRule& rule) { return rule.route == route; });
}

// `active` holds the ignore_class rules whose layer is an ancestor of this one.
RuleEffect effect_of_rules(const IgnoreRules& rules, const std::string& route, const std::string& class_name,
                           const std::vector<const ClassRule*>& active) {
  if (names(rules.ignore_recursively, route)) return RuleEffect::kIgnoreRecursively;
  if (names(rules.ignore, route)) return RuleEffect::kIgnore;
  const bool class_ignored =
      std::any_of(active.begin(), active.end(), [&](const ClassRule* rule) { return rule->class_name == class_name; });
  return class_ignored ? RuleEffect::kIgnore : RuleEffect::kKeep;
}

// The ignore_class rules in force for the sublayers of the layer at `route`.
std::vector<const ClassRule*> active_below(const IgnoreRules& rules, const std::string& route,
                                           std::vector<const ClassRule*> active) {
  for (const ClassRule& rule : rules.ignore_class)
    if (rule.under == route) active.push_back(&rule);
  return active;
}

// Appends what is left of `node` to `out`: the node itself, or its kept sublayers in its place.
void filter_report_node(const IgnoreRules& rules, ReportNode node, const std::vector<const ClassRule*>& active,
                        std::vector<ReportNode>& out) {
  const RuleEffect effect = effect_of_rules(rules, node.route, node.name, active);
  if (effect == RuleEffect::kIgnoreRecursively) return;
  const auto below = active_below(rules, node.route, active);
  std::vector<ReportNode> children;
  for (ReportNode& child : node.children) filter_report_node(rules, std::move(child), below, children);
  if (effect == RuleEffect::kIgnore) {
    std::move(children.begin(), children.end(), std::back_inserter(out));
    return;
  }
  node.children = std::move(children);
  out.push_back(std::move(node));
}

void filter_param_node(const IgnoreRules& rules, ParamNode& node, const std::vector<const ClassRule*>& active,
                       bool inside_ignored_subtree) {
  const RuleEffect effect = effect_of_rules(rules, node.route, node.name, active);
  const bool subtree_ignored = inside_ignored_subtree || effect == RuleEffect::kIgnoreRecursively;
  if (subtree_ignored || effect == RuleEffect::kIgnore) node.available = false;
  const auto below = active_below(rules, node.route, active);
  for (ParamNode& child : node.children) filter_param_node(rules, child, below, subtree_ignored);
}

void warn_unmatched(const std::string& file, const std::string& side, const std::string& route, int line,
                    const std::set<std::string>& routes, std::vector<std::string>& warnings) {
  if (!routes.contains(route))
    warnings.push_back(file + ":" + std::to_string(line) + ": " + side + " route '" + route +
                       "' names no layer in the " + side + " dump");
}

void warn_unmatched(const std::string& file, const std::string& side, const IgnoreRules& rules,
                    const std::set<std::string>& routes, std::vector<std::string>& warnings) {
  for (const RouteRule& rule : rules.ignore) warn_unmatched(file, side, rule.route, rule.line, routes, warnings);
  for (const RouteRule& rule : rules.ignore_recursively)
    warn_unmatched(file, side, rule.route, rule.line, routes, warnings);
  for (const ClassRule& rule : rules.ignore_class) warn_unmatched(file, side, rule.under, rule.line, routes, warnings);
}

}  // namespace

Result<LayerMap> read_layer_map(const std::string& path) {
  auto root = TRY(config::load_yaml_file(path, "layer map"));
  LayerMap map;
  map.file = path;
  if (root.IsNull()) return map;  // an empty file maps nothing
  if (!root.IsMap()) return fail(yaml_error(path, root, "", "expected a map with keys base, raw, map"));
  for (const auto& entry : root) {
    const std::string key = entry.first.Scalar();
    if (key == "base" || key == "raw") {
      auto rules = TRY(read_ignore_rules(path, entry.second, key));
      (key == "base" ? map.base : map.raw) = std::move(rules);
    } else if (key == "map") {
      auto pairs = TRY(read_pairs(path, entry.second));
      map.pairs = std::move(pairs);
    } else {
      return fail(yaml_error(path, entry.first, key, "unknown key (expected base, raw, map)"));
    }
  }
  return map;
}

std::vector<ReportNode> apply_ignore_rules(const IgnoreRules& rules, std::vector<ReportNode> roots) {
  std::vector<ReportNode> kept;
  for (ReportNode& root : roots) filter_report_node(rules, std::move(root), {}, kept);
  return kept;
}

ParamNode apply_ignore_rules(const IgnoreRules& rules, ParamNode root) {
  filter_param_node(rules, root, {}, false);
  return root;
}

std::vector<std::string> unmatched_rule_warnings(const LayerMap& map, const std::set<std::string>& base_routes,
                                                 const std::set<std::string>& raw_routes) {
  std::vector<std::string> warnings;
  warn_unmatched(map.file, "base", map.base, base_routes, warnings);
  warn_unmatched(map.file, "raw", map.raw, raw_routes, warnings);
  for (const MappedPair& pair : map.pairs) {
    warn_unmatched(map.file, "base", pair.base_route, pair.line, base_routes, warnings);
    warn_unmatched(map.file, "raw", pair.raw_route, pair.line, raw_routes, warnings);
  }
  return warnings;
}

}  // namespace tipc::align
