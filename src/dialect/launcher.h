#pragma once
// Launchers of distributed trains, read from configs/launchers.yaml.
#include <string>

#include "core/error.h"

namespace tipc::dialect {

struct Launcher {
  std::string name;
  std::string multi;          // {launcher_args} text for a multi-GPU train on one node
  std::string multi_node;     // ... on several nodes
  bool spawns_ranks = false;  // tipc-run starts one process per GPU with the rank variables
};

// The launchers file that belongs to a dialect directory (configs/dialects -> configs/launchers.yaml).
std::string launchers_file(const std::string& dialect_directory);

Result<Launcher> load_launcher(const std::string& file, const std::string& name);

}  // namespace tipc::dialect
