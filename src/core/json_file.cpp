#include "core/json_file.h"

#include "core/atomic_file.h"

namespace tipc {

Result<void> write_json_atomically(const std::string& path, const nlohmann::ordered_json& json) {
  return write_file_atomically(path, json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

namespace {
constexpr int kIndent = 2;
}  // namespace

void append_nested(std::string& out, const nlohmann::ordered_json& json, int depth) {
  const std::string pad(static_cast<std::size_t>(kIndent * depth), ' ');
  for (const char c : json.dump(kIndent, ' ', false, nlohmann::ordered_json::error_handler_t::replace)) {
    out += c;
    if (c == '\n') out += pad;
  }
}

void append_streamed(std::string& out, const nlohmann::ordered_json& head, int depth, std::size_t count,
                     const std::function<void(std::string&, std::size_t, int)>& element) {
  std::string text;
  append_nested(text, head, depth);
  const std::size_t empty = text.rfind("[]");
  if (count == 0 || empty == std::string::npos) {
    out += text;
    return;
  }
  out.append(text, 0, empty + 1);
  for (std::size_t i = 0; i < count; ++i) {
    out += '\n';
    out.append(static_cast<std::size_t>(kIndent * (depth + 2)), ' ');
    element(out, i, depth + 2);
    if (i + 1 < count) out += ',';
  }
  out += '\n';
  out.append(static_cast<std::size_t>(kIndent * (depth + 1)), ' ');
  out += ']';
  out.append(text, empty + 2);
}

}  // namespace tipc
