#include "report/html_text.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/utf8.h"
#include "core/visible_text.h"

namespace tipc::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

// One decoded character, escaped. Control characters (core/visible_text.h) show as their
// Control Pictures (U+2400 + c, DEL as U+2421); C1 controls, which have no picture, as U+FFFD.
void append_escaped(std::string& out, std::uint32_t code_point, std::string_view bytes) {
  switch (code_point) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\'': out += "&#39;"; return;
    default: break;
  }
  if (!is_control_character(code_point)) {
    out += bytes;
  } else if (code_point < 0x20) {
    append_utf8(out, 0x2400 + code_point);
  } else if (code_point == 0x7F) {
    append_utf8(out, 0x2421);
  } else {
    out += kReplacement;
  }
}

// The length of a terminal control sequence (ESC [ parameters intermediates final) at
// text[at], or 0 if there is none.
std::size_t control_sequence_length(std::string_view text, std::size_t at) {
  if (text.substr(at, 2) != "\x1b[") return 0;
  std::size_t end = at + 2;
  while (end < text.size() && text[end] >= 0x20 && text[end] <= 0x3F) ++end;
  if (end < text.size() && text[end] >= 0x40 && text[end] <= 0x7E) return end + 1 - at;
  return 0;
}

std::string without_terminal_codes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const std::size_t skip = control_sequence_length(text, i)) {
      i += skip - 1;
    } else if (text[i] == '\r') {
      if (i + 1 == text.size() || text[i + 1] != '\n') out += '\n';
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    if (const auto c = decode_utf8(text, i)) {
      append_escaped(out, c->code_point, text.substr(i, c->length));
      i += c->length;
    } else {
      out += kReplacement;
      ++i;
    }
  }
  return out;
}

std::string html_escape_log(std::string_view text) { return html_escape(without_terminal_codes(text)); }

// Every byte outside [A-Za-z0-9-._~/] percent-encoded (a ':' too, so that no relative
// URL's first segment reads as a scheme).
std::string percent_encoded(std::string_view path) {
  std::string url;
  for (const char c : path) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '/';
    url += unreserved ? std::string(1, c) : fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  return url;
}

std::string file_url(std::string_view path) { return "file://" + percent_encoded(path); }

std::string relative_url(std::string_view path, std::string_view base_dir) {
  const std::filesystem::path file(path), base(base_dir);
  if (base_dir.empty() || !file.is_absolute() || !base.is_absolute()) return file_url(path);
  const std::filesystem::path relative = file.lexically_normal().lexically_relative(base.lexically_normal());
  return relative.empty() ? file_url(path) : percent_encoded(relative.generic_string());
}

}  // namespace tipc::report
