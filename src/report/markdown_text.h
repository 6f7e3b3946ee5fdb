#pragma once
// Text inside Markdown tables, as GitHub renders them (summary.md, compare's PR comment).
#include <string>
#include <string_view>

namespace tipc::report {

// Text that stays inside one table cell: no line breaks, no control characters, pipes
// escaped, and no HTML (GitHub renders tags in Markdown).
std::string markdown_cell(std::string_view text);

// A code span, unless the text holds a backtick (then plain cell text).
std::string markdown_code(std::string_view text);

}  // namespace tipc::report
