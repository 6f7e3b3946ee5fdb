#include "dialect/launcher.h"

#include <filesystem>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"

namespace tipc::dialect {

std::string launchers_file(const std::string& dialect_directory) {
  return (std::filesystem::path(dialect_directory).parent_path() / "launchers.yaml").string();
}

Result<Launcher> load_launcher(const std::string& file, const std::string& name) {
  const YAML::Node root = TRY(config::load_yaml_file(file, "the launchers file"));
  config::YamlReader r(file);
  const YAML::Node node = root.IsMap() ? r.section(root, name) : YAML::Node();
  if (!node || !node.IsMap()) {
    std::vector<std::string> known;
    for (const auto& item : root) known.push_back(r.scalar(item.first, "launchers"));
    return fail(
        Error::at(file, 0, name, fmt::format("unknown launcher '{}' (known: {})", name, fmt::join(known, ", "))));
  }
  Launcher launcher{name, r.str(node, "multi", ""), r.str(node, "multi_node", ""),
                    r.boolean(node, "spawns_ranks", false)};
  if (auto problems = r.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  return launcher;
}

}  // namespace tipc::dialect
