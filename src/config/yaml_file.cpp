#include "config/yaml_file.h"

#include "core/regular_file.h"

namespace tipc::config {

Result<YAML::Node> load_yaml_file(const std::string& path, const std::string& what) {
  const std::string text = TRY(read_regular_file(path, {what}));
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg));
  }
}

int yaml_line(const YAML::Node& node) { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }

}  // namespace tipc::config
