#include "align/numeric/layout.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"

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

Error bad_rule(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& what) {
  return Error::at(file, config::yaml_line(node), key, fmt::format("layout of '{}': {}", key, what));
}

// A list of axis numbers; nullopt when an element is not one (yaml-cpp's decode does not throw).
std::optional<std::vector<std::size_t>> axis_list(const YAML::Node& list) {
  std::vector<std::size_t> axes;
  for (const YAML::Node& item : list) {
    std::size_t axis = 0;
    if (!item.IsScalar() || !YAML::convert<std::size_t>::decode(item, axis)) return std::nullopt;
    axes.push_back(axis);
  }
  return axes;
}

Result<LayoutRule> read_rule(const std::string& file, const YAML::Node& key_node, const YAML::Node& value) {
  const std::string key = key_node.Scalar();
  LayoutRule rule{key, "", {}, fmt::format("{}:{}", file, config::yaml_line(key_node))};
  if (value.IsSequence()) {
    auto axes = axis_list(value);
    if (!axes) return fail(bad_rule(file, value, key, "a permutation is a list of axis numbers"));
    rule.axes = std::move(*axes);
    if (rule.axes.empty() || !is_permutation_of_axes(rule.axes)) {
      return fail(bad_rule(file, value, key, "the list must hold each axis 0..n-1 exactly once"));
    }
    rule.transform = fmt::format("[{}]", fmt::join(rule.axes, ", "));
    return rule;
  }
  rule.transform = value.IsScalar() ? value.Scalar() : "";
  if (named_transform(rule.transform) == nullptr) {
    return fail(bad_rule(
        file, value, key,
        fmt::format("unknown transform '{}' (expected transpose, oihw_to_hwio, hwio_to_oihw or a list of axes)",
                    rule.transform)));
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

Array permuted_copy(const Array& array, const std::vector<std::size_t>& axes) {
  Array out = array;
  out.fortran_order = false;
  for (std::size_t k = 0; k < axes.size(); ++k) out.shape[k] = array.shape[axes[k]];
  // Output axis k walks input axis axes[k]: its stride is that axis's C-order stride.
  std::vector<std::size_t> in_strides(array.ndim(), 1), strides(axes.size());
  for (std::size_t axis = array.ndim(); axis-- > 1;) in_strides[axis - 1] = in_strides[axis] * array.shape[axis];
  for (std::size_t k = 0; k < axes.size(); ++k) strides[k] = in_strides[axes[k]];
  const std::size_t item = array.dtype.item_size, count = array.size();
  std::vector<std::byte> bytes(count * item);
  std::vector<std::size_t> index(axes.size(), 0);
  std::size_t source = 0;  // the C-order index in `array` of output element i
  for (std::size_t i = 0; i < count; ++i) {
    std::memcpy(bytes.data() + i * item, array.data.data() + array.storage_index(source) * item, item);
    for (std::size_t k = axes.size(); k-- > 0;) {  // the last axis varies fastest
      source += strides[k];
      if (++index[k] < out.shape[k]) break;
      source -= strides[k] * out.shape[k];
      index[k] = 0;
    }
  }
  out.data = SharedBytes::own(std::move(bytes));
  return out;
}

Result<std::vector<LayoutRule>> layout_rules_from_yaml(const YAML::Node& map, const std::string& file) {
  if (!map.IsMap()) return fail(Error::at(file, config::yaml_line(map), "layout", "expected a map of key: transform"));
  std::vector<LayoutRule> rules;
  for (const auto& item : map) rules.push_back(TRY(read_rule(file, item.first, item.second)));
  return rules;
}

Result<std::vector<LayoutRule>> load_layout_file(const std::string& path) {
  const YAML::Node root = TRY(config::load_yaml_file(path, "the layout file"));
  if (!root.IsMap() || !root["layout"]) return fail(Error::at(path, 1, "layout", "expected a top-level 'layout:' map"));
  for (const auto& item : root) {
    if (item.first.Scalar() != "layout") {
      return fail(Error::at(path, config::yaml_line(item.first), item.first.Scalar(), "unknown key"));
    }
  }
  return layout_rules_from_yaml(root["layout"], path);
}

}  // namespace tipc::align
