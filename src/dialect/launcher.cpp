#include "dialect/launcher.h"

#include <cerrno>
#include <filesystem>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace tipc::dialect {

std::string launchers_file(const std::string& dialect_directory) {
  return (std::filesystem::path(dialect_directory).parent_path() / "launchers.yaml").string();
}

Result<Launcher> load_launcher(const std::string& file, const std::string& name) {
  try {
    const YAML::Node root = YAML::LoadFile(file);
    const YAML::Node node = root[name];
    if (!node || !node.IsMap()) {
      std::vector<std::string> known;
      for (const auto& item : root) known.push_back(item.first.as<std::string>());
      return fail(Error::at(file, 0, name, fmt::format("unknown launcher '{}' (known: {})", name, fmt::join(known, ", "))));
    }
    Launcher launcher{name, node["multi"].as<std::string>(""), node["multi_node"].as<std::string>(""),
                      node["spawns_ranks"].as<bool>(false)};
    return launcher;
  } catch (const YAML::BadFile&) {
    return fail(Error::at(file, 0, "", "cannot open the launchers file: " + errno_text(errno)));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(file, e.mark.line + 1, name, e.msg));
  }
}

}  // namespace tipc::dialect
