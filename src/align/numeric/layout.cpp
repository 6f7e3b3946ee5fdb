#include "align/numeric/layout.h"

#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

namespace tipc::align {
namespace {

struct NamedTransform {
  const char* name;
  std::vector<std::size_t> axes;  // empty: reverse all axes, any rank
};

const std::vector<NamedTransform>& named_transforms() {
  static const std::vector<NamedTransform> transforms{
      {"transpose", {}},
      {"oihw_to_hwio", {2, 3, 1, 0}},  // B's axes O,I,H,W taken in the order H,W,I,O
      {"hwio_to_oihw", {3, 2, 0, 1}},  // B's axes H,W,I,O taken in the order O,I,H,W
  };
  return transforms;
}

const NamedTransform* named_transform(const std::string& name) {
  const auto& all = named_transforms();
  const auto it = std::find_if(all.begin(), all.end(), [&](const NamedTransform& t) { return name == t.name; });
  return it == all.end() ? nullptr : &*it;
}

bool is_permutation_of_axes(std::vector<std::size_t> axes) {
  std::sort(axes.begin(), axes.end());
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] != i) return false;
  }
  return true;
}

[[noreturn]] void bad_rule(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& what) {
  throw Error::at(file, node.Mark().line + 1, key, fmt::format("layout of '{}': {}", key, what));
}

LayoutRule read_rule(const std::string& file, const YAML::Node& key_node, const YAML::Node& value) {
  const std::string key = key_node.as<std::string>();
  LayoutRule rule{key, "", {}, fmt::format("{}:{}", file, key_node.Mark().line + 1)};
  if (value.IsSequence()) {
    try {
      rule.axes = value.as<std::vector<std::size_t>>();
    } catch (const YAML::Exception&) {
      bad_rule(file, value, key, "a permutation is a list of axis numbers");
    }
    if (rule.axes.empty() || !is_permutation_of_axes(rule.axes)) {
      bad_rule(file, value, key, "the list must hold each axis 0..n-1 exactly once");
    }
    rule.transform = fmt::format("[{}]", fmt::join(rule.axes, ", "));
    return rule;
  }
  rule.transform = value.IsScalar() ? value.as<std::string>() : "";
  if (named_transform(rule.transform) == nullptr) {
    bad_rule(file, value, key,
             fmt::format("unknown transform '{}' (expected transpose, oihw_to_hwio, hwio_to_oihw or a list of axes)",
                         rule.transform));
  }
  return rule;
}

}  // namespace

const LayoutRule* find_layout_rule(const std::vector<LayoutRule>& rules, const std::string& key_path) {
  const auto it = std::find_if(rules.begin(), rules.end(), [&](const LayoutRule& rule) {
    return rule.pattern == key_path || fnmatch(rule.pattern.c_str(), key_path.c_str(), 0) == 0;
  });
  return it == rules.end() ? nullptr : &*it;
}

Result<std::vector<std::size_t>> layout_axes(const LayoutRule& rule, std::size_t ndim) {
  const NamedTransform* named = named_transform(rule.transform);
  if (named != nullptr && named->axes.empty()) {
    std::vector<std::size_t> reversed(ndim);
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    return reversed;
  }
  const std::vector<std::size_t>& axes = named != nullptr ? named->axes : rule.axes;
  if (axes.size() != ndim) {
    return fail(Error::plain(fmt::format("layout transform {} ({}) needs a {}-D array, got {}-D", rule.transform,
                                         rule.source, axes.size(), ndim)));
  }
  return axes;
}

Result<std::vector<LayoutRule>> layout_rules_from_yaml(const YAML::Node& map, const std::string& file) {
  if (!map.IsMap()) return fail(Error::at(file, map.Mark().line + 1, "layout", "expected a map of key: transform"));
  std::vector<LayoutRule> rules;
  try {
    for (const auto& item : map) rules.push_back(read_rule(file, item.first, item.second));
  } catch (const Error& e) {
    return fail(e);
  }
  return rules;
}

Result<std::vector<LayoutRule>> load_layout_file(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (!root.IsMap() || !root["layout"]) return fail(Error::at(path, 1, "layout", "expected a top-level 'layout:' map"));
    for (const auto& item : root) {
      if (item.first.as<std::string>() != "layout") {
        return fail(Error::at(path, item.first.Mark().line + 1, item.first.as<std::string>(), "unknown key"));
      }
    }
    return layout_rules_from_yaml(root["layout"], path);
  } catch (const YAML::BadFile&) {
    return fail(Error::at(path, 0, "", "cannot open the layout file: " + errno_text(errno)));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line + 1, "", e.msg));
  }
}

}  // namespace tipc::align
