#include "core/error.h"

#include <system_error>

namespace tipc {

std::string Diagnostic::str() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (!out.empty()) out += ": ";
  return out + message;
}

Error Error::at(std::string file, int line, std::string key, std::string message) {
  return Error{{Diagnostic{std::move(file), line, std::move(key), std::move(message)}}};
}

Error Error::plain(std::string message) { return at("", 0, "", std::move(message)); }

std::string Error::str() const {
  std::string out;
  for (const auto& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += d.str();
  }
  return out;
}

std::string errno_text(int code) { return std::error_code(code, std::generic_category()).message(); }

}  // namespace tipc
