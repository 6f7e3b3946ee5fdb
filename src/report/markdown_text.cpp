#include "report/markdown_text.h"

namespace tipc::report {

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  return text.find('`') == std::string_view::npos ? "`" + markdown_cell(text) + "`" : markdown_cell(text);
}

}  // namespace tipc::report
