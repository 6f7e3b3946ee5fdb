#include "config/config_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/regular_file.h"
#include "core/text.h"
#include "core/utf8.h"

namespace tipc::config {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

Result<void> check_line_bytes(std::string_view line, const std::string& path, int number, const TextLimits& limits) {
  if (line.size() > limits.max_line_bytes) {
    return fail(Error::at(
        path, number, "",
        fmt::format("line is {} bytes long (limit {}); not a TIPC config", line.size(), limits.max_line_bytes)));
  }
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\0') {
      return fail(Error::at(path, number, "", "binary data (NUL byte); not a TIPC config"));
    }
    const auto character = decode_utf8(line, i);
    if (!character) {
      return fail(
          Error::at(path, number, "", fmt::format("invalid UTF-8 at byte {} of the line; not a text file", i + 1)));
    }
    i += character->length;
  }
  return {};
}

// Cuts the CR of a CRLF line end and the spaces, tabs and stray CRs before it into `trailing`.
ConfigLine normalised_line(std::string_view line, int number, Normalised& normalised) {
  if (line.ends_with('\r')) ++normalised.crlf_lines;
  const std::string_view kept = trim_end(line, " \t\r");
  return {std::string(kept), std::string(line.substr(kept.size())), number};
}

}  // namespace

bool ConfigLine::counts(LineView view) const {
  return view == LineView::kVerbatim || !text.empty() || trailing != "\r";
}

std::string ConfigLine::read_as(LineView view) const { return view == LineView::kVerbatim ? text + trailing : text; }

const std::string& ConfigText::header_line() const {
  static const std::string kNone;
  for (const auto& line : lines) {
    if (!line.text.empty()) return line.text;
  }
  return kNone;
}

Result<ConfigText> parse_config_text(std::string_view bytes, const std::string& path, const TextLimits& limits) {
  if (bytes.size() > limits.max_file_bytes) {
    return fail(
        Error::at(path, 0, "", fmt::format("file is larger than {} bytes; not a TIPC config", limits.max_file_bytes)));
  }
  ConfigText text{path, {}, 0, {}};
  if (bytes.starts_with(kUtf8Bom)) bytes.remove_prefix(kUtf8Bom.size());
  int number = 0;
  std::size_t start = 0;
  while (start < bytes.size()) {
    const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
    const std::string_view line = bytes.substr(start, end - start);
    start = end + 1;
    ++number;
    TRY(check_line_bytes(line, path, number, limits));
    if (!line.empty()) text.lines.push_back(normalised_line(line, number, text.normalised));
  }
  text.physical_line_count = number;
  const auto counts = [](const ConfigLine& line) { return line.counts(LineView::kNormalised); };
  if (std::none_of(text.lines.begin(), text.lines.end(), counts)) {
    return fail(Error::at(path, 0, "", "the file is empty (no non-empty line); not a TIPC config"));
  }
  return text;
}

Result<ConfigText> read_config_text(const std::string& path, const TextLimits& limits) {
  // One byte past the limit, so an oversized file is reported, not silently cut.
  const std::string bytes = TRY(read_regular_file(path, {"the config file", "open"}, limits.max_file_bytes + 1));
  return parse_config_text(bytes, path, limits);
}

std::vector<Diagnostic> normalisation_warnings(const ConfigText& text) {
  if (text.normalised.crlf_lines == 0) return {};
  return {{text.path, 0, "",
           fmt::format("{} of {} lines end in CR LF: tipc-run removes the CR, the reference runner keeps it at the "
                       "end of every key and value (reference defect D16); save the file with LF line ends",
                       text.normalised.crlf_lines, text.lines.size())}};
}

}  // namespace tipc::config
