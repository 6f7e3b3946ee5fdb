#include "report/markdown_text.h"

namespace tipc::report {
namespace {

// One table cell's text; `in_code`: inside a code span, where GitHub renders no HTML and
// shows an entity as typed, so `<` and `>` stay as they are.
std::string cell_text(std::string_view text, bool in_code) {
  std::string out;
  for (const char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '<' && !in_code)
      out += "&lt;";
    else if (c == '>' && !in_code)
      out += "&gt;";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string markdown_cell(std::string_view text) { return cell_text(text, false); }

std::string markdown_code(std::string_view text) {
  return text.find('`') == std::string_view::npos ? "`" + cell_text(text, true) + "`" : markdown_cell(text);
}

}  // namespace tipc::report
