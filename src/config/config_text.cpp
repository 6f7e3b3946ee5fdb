#include "config/config_text.h"

#include <cerrno>
#include <fstream>

#include <fmt/format.h>

#include "core/utf8.h"

namespace tipc::config {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

Result<void> check_line_bytes(std::string_view line, const std::string& path, int number,
                              const TextLimits& limits) {
  if (line.size() > limits.max_line_bytes) {
    return fail(Error::at(path, number, "",
                          fmt::format("line is {} bytes long (limit {}); not a TIPC config",
                                      line.size(), limits.max_line_bytes)));
  }
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\0') {
      return fail(Error::at(path, number, "", "binary data (NUL byte); not a TIPC config"));
    }
    const auto character = decode_utf8(line, i);
    if (!character) {
      return fail(Error::at(path, number, "",
                            fmt::format("invalid UTF-8 at byte {} of the line; not a text file", i + 1)));
    }
    i += character->length;
  }
  return {};
}

}  // namespace

Result<ConfigText> parse_config_text(std::string_view bytes, const std::string& path,
                                     const ReadOptions& options) {
  if (bytes.size() > options.limits.max_file_bytes) {
    return fail(Error::at(path, 0, "",
                          fmt::format("file is larger than {} bytes; not a TIPC config", options.limits.max_file_bytes)));
  }
  if (bytes.starts_with(kUtf8Bom)) bytes.remove_prefix(kUtf8Bom.size());

  ConfigText text{path, {}, 0};
  int number = 0;
  std::size_t start = 0;
  while (start < bytes.size()) {
    const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
    std::string_view line = bytes.substr(start, end - start);
    start = end + 1;
    ++number;
    TRY(check_line_bytes(line, path, number, options.limits));
    if (!options.keep_carriage_returns && line.ends_with('\r')) line.remove_suffix(1);
    if (!line.empty()) text.lines.push_back({std::string(line), number});
  }
  text.physical_line_count = number;
  if (text.lines.empty()) {
    return fail(Error::at(path, 0, "", "the file is empty (no non-empty line); not a TIPC config"));
  }
  return text;
}

Result<ConfigText> read_config_text(const std::string& path, const ReadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::at(path, 0, "", "cannot open the config file: " + errno_text(errno)));
  std::string bytes;
  // Read one byte past the limit so an oversized file is reported, not silently cut.
  bytes.resize(options.limits.max_file_bytes + 1);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (in.bad()) return fail(Error::at(path, 0, "", "cannot read the config file: " + errno_text(errno)));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return parse_config_text(bytes, path, options);
}

}  // namespace tipc::config
