#include "cli/visible_console.h"

#include <iostream>

#include "core/visible_text.h"

namespace tipc::cli {
namespace {

// Where the last UTF-8 character of `text` starts when its bytes are not all there yet, or
// text.size(). An invalid sequence counts as complete: visible_text replaces it.
std::size_t end_of_complete_characters(const std::string& text) {
  const std::size_t size = text.size();
  for (std::size_t back = 1; back <= 3 && back <= size; ++back) {
    const auto byte = static_cast<unsigned char>(text[size - back]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    return length > back ? size - back : size;
  }
  return size;
}

}  // namespace

bool VisibleTextBuffer::pass_on(bool whole) {
  const std::size_t end = whole ? pending_.size() : end_of_complete_characters(pending_);
  if (end == 0) return true;
  const std::string shown = visible_text(std::string_view(pending_).substr(0, end));
  pending_.erase(0, end);
  return target_->sputn(shown.data(), static_cast<std::streamsize>(shown.size())) ==
         static_cast<std::streamsize>(shown.size());
}

std::streamsize VisibleTextBuffer::xsputn(const char* text, std::streamsize count) {
  pending_.append(text, static_cast<std::size_t>(count));
  return pass_on(false) ? count : 0;
}

VisibleTextBuffer::int_type VisibleTextBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  pending_ += traits_type::to_char_type(c);
  return pass_on(false) ? c : traits_type::eof();
}

int VisibleTextBuffer::sync() { return pass_on(true) && target_->pubsync() == 0 ? 0 : -1; }

void make_console_streams_visible() {
  // Never destroyed: the streams are flushed at exit, after static objects are gone.
  static auto* const out = new VisibleTextBuffer(std::cout.rdbuf());
  static auto* const err = new VisibleTextBuffer(std::cerr.rdbuf());
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
}

}  // namespace tipc::cli
