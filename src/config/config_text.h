#pragma once
// The first parsing step of a TIPC config: bytes -> logical lines.
// A logical line is a non-empty line; the reference runner indexes only those
// (spec §2.1), so every later position refers to this list.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace tipc::config {

struct ConfigLine {
  std::string text;
  int physical_line = 0;  // 1-based line number in the file, for diagnostics
};

struct ConfigText {
  std::string path;
  std::vector<ConfigLine> lines;  // logical lines, in order
  int physical_line_count = 0;
};

struct TextLimits {
  std::size_t max_file_bytes = 8u << 20;    // far above any real config (largest upstream: ~4 KiB)
  std::size_t max_line_bytes = 64u << 10;
};

struct ReadOptions {
  // The reference keeps a CR at the end of each CRLF line (spec D16); compat copies that.
  bool keep_carriage_returns = false;
  TextLimits limits;
};

// Splits already-read bytes. Rejects what cannot be a config (NUL bytes, invalid
// UTF-8, oversized lines, no content) with a file:line diagnostic.
Result<ConfigText> parse_config_text(std::string_view bytes, const std::string& path,
                                     const ReadOptions& options);

// Reads the file (bounded by the size limit) and parses it.
Result<ConfigText> read_config_text(const std::string& path, const ReadOptions& options);

}  // namespace tipc::config
