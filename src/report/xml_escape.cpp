#include "report/xml_escape.h"

#include "core/utf8.h"
#include "core/visible_text.h"

namespace tipc::report {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

bool forbidden_in_xml(std::uint32_t c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF;
}

// The escaped spelling of an ASCII character, or nullptr when it stands for itself.
const char* ascii_escape(char c, XmlContext context) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    case '\r': return "&#13;";
    case '\t': return context == XmlContext::kAttribute ? "&#9;" : nullptr;
    case '\n': return context == XmlContext::kAttribute ? "&#10;" : nullptr;
    default: return nullptr;
  }
}

}  // namespace

std::string xml_escape(std::string_view text, XmlContext context) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = decode_utf8(text, i);
    if (!c) {
      out += kReplacementCharacter;
      ++i;
      continue;
    }
    if (forbidden_in_xml(c->code_point)) {
      out += written_out(c->code_point);
    } else if (const char* escaped = c->length == 1 ? ascii_escape(text[i], context) : nullptr) {
      out += escaped;
    } else {
      out.append(text, i, c->length);
    }
    i += c->length;
  }
  return out;
}

}  // namespace tipc::report
