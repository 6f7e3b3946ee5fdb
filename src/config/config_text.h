#pragma once
// The one reader of a TIPC config: bytes -> logical lines, decoded once per run. Every
// consumer (chain detection, the native and chain planners, the traced planner, compat)
// takes the ConfigText this returns, never the file's path, so a byte-order mark, CRLF
// line ends and trailing blanks are handled here and nowhere else.
// A logical line is a non-empty line; the reference runner indexes only those
// (docs/config-format.md#logical-lines), so every later position refers to this list.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace tipc::config {

// How a planner reads the lines: default mode the normalised text; compat the bytes as the
// reference reads them, trailing blanks and CR kept (D16 in docs/reference-runner.md).
enum class LineView { kNormalised, kVerbatim };

struct ConfigLine {
  std::string text;       // without trailing spaces, tabs and CR: what default mode reads
  std::string trailing;   // what was cut from its end, verbatim: the reference keeps it (compat)
  int physical_line = 0;  // 1-based line number in the file, for diagnostics

  // A line of blanks counts in both views (docs/config-format.md#logical-lines); a line holding only a CR counts in
  // the reference's only, which does not remove the CR.
  bool counts(LineView view) const;
  std::string read_as(LineView view) const;
};

// What decoding changed that is worth a warning: the reference runner reads the bytes as
// they are. (A byte-order mark only ever sits in the header, which the reference ignores;
// trailing blanks are common upstream and only change the command text.)
struct Normalised {
  int crlf_lines = 0;  // lines that ended in CR LF
};

struct ConfigText {
  std::string path;
  std::vector<ConfigLine> lines;  // every non-empty physical line, in order (see ConfigLine::counts)
  int physical_line_count = 0;
  Normalised normalised;

  // The first line with text: the header that picks the config's chain (dialect/chains.h).
  const std::string& header_line() const;
};

struct TextLimits {
  std::size_t max_file_bytes = 8u << 20;  // far above any real config (largest upstream: ~4 KiB)
  std::size_t max_line_bytes = 64u << 10;
};

// Splits already-read bytes. Rejects what cannot be a config (NUL bytes, invalid
// UTF-8, oversized lines, no content) with a file:line diagnostic. A line of blanks only
// is not empty and counts (docs/config-format.md#logical-lines); its text is empty and its blanks are `trailing`. A
// byte-order mark is dropped in both views.
Result<ConfigText> parse_config_text(std::string_view bytes, const std::string& path, const TextLimits& limits = {});

// Reads the file (bounded by the size limit) and parses it.
Result<ConfigText> read_config_text(const std::string& path, const TextLimits& limits = {});

// Default mode: a warning per kind of line end the reference would read differently
// (CRLF: the reference keeps the CR in every value, D16 in docs/reference-runner.md); none in compat.
std::vector<Diagnostic> normalisation_warnings(const ConfigText& text);

}  // namespace tipc::config
