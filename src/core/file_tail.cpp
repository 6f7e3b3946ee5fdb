#include "core/file_tail.h"

#include <algorithm>
#include <fstream>

namespace tipc {
namespace {

// The tail, and whether it starts after the file's first byte.
std::pair<std::string, bool> read_tail(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {"", false};
  const std::streamoff size = in.tellg();
  if (size < 0) return {"", false};
  const std::streamoff start = std::max<std::streamoff>(0, size - static_cast<std::streamoff>(bytes));
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return {std::move(text), start > 0};
}

}  // namespace

std::string file_tail(const std::string& path, std::size_t bytes) { return read_tail(path, bytes).first; }

std::string file_tail_lines(const std::string& path, std::size_t bytes) {
  auto [text, cut] = read_tail(path, bytes);
  if (cut) text.erase(0, std::min(text.size(), text.find('\n') + 1));
  return text;
}

}  // namespace tipc
