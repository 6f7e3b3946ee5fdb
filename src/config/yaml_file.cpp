#include "config/yaml_file.h"

#include <cerrno>
#include <fstream>
#include <sstream>

namespace tipc::config {

Result<YAML::Node> load_yaml_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::at(path, 0, "", "cannot read " + what + ": " + errno_text(errno)));
  std::stringstream text;
  text << in.rdbuf();
  try {
    return YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg));
  }
}

int yaml_line(const YAML::Node& node) { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }

}  // namespace tipc::config
