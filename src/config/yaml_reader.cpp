#include "config/yaml_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "config/yaml_file.h"

namespace tipc::config {
namespace {

// Where a map starts in the file: its identity for the keys read from it.
std::size_t position(const YAML::Node& node) { return static_cast<std::size_t>(node.Mark().pos); }

}  // namespace

YAML::Node YamlReader::child(const YAML::Node& parent, const std::string& key) {
  if (!parent.IsDefined() || !parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  read_keys_.insert({position(parent), key});
  return parent[key];
}

YAML::Node YamlReader::section(const YAML::Node& parent, const std::string& key) {
  YAML::Node node = child(parent, key);
  check_keys(node, key);
  return node;
}

void YamlReader::check_keys(const YAML::Node& node, const std::string& where) {
  if (node.IsDefined() && node.IsMap()) checked_.emplace_back(node, where);
}

void YamlReader::problem(const YAML::Node& node, const std::string& key, const std::string& message) {
  problems_.push_back({path_, node.IsDefined() ? yaml_line(node) : 0, key, fmt::format("key '{}': {}", key, message)});
}

std::string YamlReader::scalar(const YAML::Node& node, const std::string& key) {
  if (node.IsScalar()) return node.Scalar();
  problem(node, key, "expected a string");
  return "";
}

std::string YamlReader::str(const YAML::Node& parent, const std::string& key, std::optional<std::string> fallback) {
  const YAML::Node node = child(parent, key);
  if (node) return scalar(node, key);
  if (!fallback) problem(parent, key, "missing");
  return fallback.value_or("");
}

int YamlReader::integer(const YAML::Node& parent, const std::string& key, std::optional<int> fallback) {
  const YAML::Node node = child(parent, key);
  int value = fallback.value_or(0);
  if (!node) {
    if (!fallback) problem(parent, key, "missing");
  } else if (!node.IsScalar() || !YAML::convert<int>::decode(node, value)) {
    problem(node, key, "expected an integer");
  }
  return value;
}

std::optional<double> YamlReader::non_negative(const YAML::Node& node, const std::string& key, const char* expected) {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value)) {
    problem(node, key, expected);
    return std::nullopt;
  }
  if (value < 0) {
    problem(node, key, "must not be negative");
    return std::nullopt;
  }
  return value;
}

bool YamlReader::boolean(const YAML::Node& parent, const std::string& key, bool fallback) {
  const YAML::Node node = child(parent, key);
  bool value = fallback;
  if (node && (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)))
    problem(node, key, "expected true or false");
  return value;
}

std::vector<std::string> YamlReader::strings(const YAML::Node& parent, const std::string& key) {
  const YAML::Node node = child(parent, key);
  if (!node) return {};
  if (node.IsScalar()) return {node.Scalar()};
  if (!node.IsSequence()) {
    problem(node, key, "expected a string or a list of strings");
    return {};
  }
  std::vector<std::string> out;
  for (const auto& item : node) {
    if (item.IsScalar())
      out.push_back(item.Scalar());
    else
      problem(item, key, "expected a list of strings");
  }
  return out;
}

std::string YamlReader::one_of(const YAML::Node& parent, const std::string& key,
                               const std::vector<std::string>& allowed, const std::string& fallback) {
  const std::string value = str(parent, key, fallback);
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  problem(child(parent, key), key, fmt::format("'{}' is not one of: {}", value, fmt::join(allowed, ", ")));
  return fallback;
}

std::vector<Diagnostic> YamlReader::finish() {
  std::set<std::size_t> done;  // a map read as two things (a stage and an inference branch) is checked once
  for (const auto& [node, where] : checked_) {
    if (!done.insert(position(node)).second) continue;
    for (const auto& item : node) {
      const std::string key = item.first.IsScalar() ? item.first.Scalar() : "?";
      if (!read_keys_.contains({position(node), key}))
        problem(item.first, key, fmt::format("unknown key in {}", where));
    }
  }
  checked_.clear();
  std::stable_sort(problems_.begin(), problems_.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
  return std::move(problems_);
}

}  // namespace tipc::config
