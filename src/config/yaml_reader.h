#pragma once
// A YAML document read into plain structs with every problem collected (file, line, key),
// not only the first: an accessor that finds something wrong records it and returns its
// fallback, so one run reports them all. The keys a section may hold are the keys read
// from it: after reading, a key nobody asked for is reported as unknown (a misspelt key
// would otherwise fall back to a default in silence), so each key is named once, where it
// is read. No exception leaves it (yaml-cpp's conversions are caught where they happen).
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/error.h"

namespace tipc::config {

class YamlReader {
 public:
  explicit YamlReader(std::string path) : path_(std::move(path)) {}

  // parent[key], marked as read; undefined when parent is not a map (an optional block left out).
  YAML::Node child(const YAML::Node& parent, const std::string& key);
  // child(parent, key), whose own keys are then checked (`key` names it in the message).
  YAML::Node section(const YAML::Node& parent, const std::string& key);
  // Checks the keys of `node` (a map) once reading is over; `where` names it: "the dialect".
  void check_keys(const YAML::Node& node, const std::string& where);

  std::string str(const YAML::Node& parent, const std::string& key, std::optional<std::string> fallback = {});
  int integer(const YAML::Node& parent, const std::string& key, std::optional<int> fallback = {});
  bool boolean(const YAML::Node& parent, const std::string& key, bool fallback);
  // A string or a list of strings.
  std::vector<std::string> strings(const YAML::Node& parent, const std::string& key);
  std::string one_of(const YAML::Node& parent, const std::string& key, const std::vector<std::string>& allowed,
                     const std::string& fallback);
  // A node's number when it is one and not negative; else nullopt and a problem (`expected`
  // when it is no number, "must not be negative" when it is below 0).
  std::optional<double> non_negative(const YAML::Node& node, const std::string& key, const char* expected);
  // A node's own text (a map key, a list item), or "" and a problem when it is not a scalar.
  std::string scalar(const YAML::Node& node, const std::string& key);

  void problem(const YAML::Node& node, const std::string& key, const std::string& message);
  // Every problem, unknown keys included, in the order of the file; empty when all was right.
  std::vector<Diagnostic> finish();

 private:
  std::string path_;
  std::vector<Diagnostic> problems_;
  std::set<std::pair<std::size_t, std::string>> read_keys_;  // (the map's position in the file, key)
  std::vector<std::pair<YAML::Node, std::string>> checked_;  // maps whose keys are checked, and their names
};

}  // namespace tipc::config
