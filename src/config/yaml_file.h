#pragma once
// Reading a whole YAML file into a node, with the one error shape the project uses:
// "FILE: cannot read WHAT" or "FILE:LINE: <yaml-cpp's message>".
#include <string>

#include <yaml-cpp/yaml.h>

#include "core/error.h"

namespace tipc::config {

// `what` names the file's role in the "cannot read" message ("layer map", "threshold file").
Result<YAML::Node> load_yaml_file(const std::string& path, const std::string& what);

// The 1-based line a node was read from; 0 for one with no place in a file.
int yaml_line(const YAML::Node& node);

}  // namespace tipc::config
