#pragma once
// Text from a log, a config, a path or an archive, made inert for a terminal, a CI log or a
// report: nothing of it can move the cursor, set the window title, clear the screen, ring the
// bell or draw over an earlier line. One rule for the console, stderr and every report.
#include <cstdint>
#include <string>
#include <string_view>

namespace tipc {

// The characters that act instead of showing: the C0 controls but tab and line feed, DEL,
// and the C1 controls U+0080..U+009F (a terminal reads U+009B as ESC [).
bool is_control_character(std::uint32_t code_point);

// A code point spelt in ASCII: "\x1b" below U+0080, "\u0085" (upper-case hex) from there.
std::string written_out(std::uint32_t code_point);

// `text` with every control character written out ("\x1b", "\x0d", "\x07", "\x7f",
// "\u009b") and every byte that is not part of valid UTF-8 as U+FFFD. Tab, line feed and
// printable characters stay as they are, so multi-line blocks keep their lines; the result
// is valid UTF-8 and visible_text of it is itself.
std::string visible_text(std::string_view text);

}  // namespace tipc
