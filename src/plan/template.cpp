#include "plan/template.h"

#include <fmt/format.h>

namespace tipc::plan {

Result<std::string> render(std::string_view text, const Vars& vars) {
  std::string out;
  out.reserve(text.size() * 2);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find('{', pos);
    if (open == std::string_view::npos) {
      out.append(text.substr(pos));
      break;
    }
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) {
      return fail(Error::plain(fmt::format("template '{}': unclosed '{{'", text)));
    }
    out.append(text.substr(pos, open - pos));
    const std::string_view name = text.substr(open + 1, close - open - 1);
    const auto it = vars.find(name);
    if (it == vars.end()) return fail(Error::plain(fmt::format("template '{}': unknown slot {{{}}}", text, name)));
    out.append(it->second);
    pos = close + 1;
  }
  return out;
}

}  // namespace tipc::plan
