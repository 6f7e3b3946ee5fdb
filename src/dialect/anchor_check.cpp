#include "dialect/anchor_check.h"

#include <fmt/format.h>

namespace tipc::dialect {
namespace {

bool is_header(const std::string& text) { return text.starts_with("==="); }

bool matches(const Anchor& anchor, const config::Field& field) {
  if (!anchor.header.empty()) return is_header(field.text) && field.text.find(anchor.header) != std::string::npos;
  return std::find(anchor.keys.begin(), anchor.keys.end(), field.key) != anchor.keys.end();
}

std::string expected_text(const Anchor& anchor) {
  if (!anchor.header.empty()) return fmt::format("a ===...{}...=== header", anchor.header);
  if (anchor.keys.size() == 1) return fmt::format("key '{}'", anchor.keys[0]);
  const std::vector<std::string> others(anchor.keys.begin() + 1, anchor.keys.end());
  return fmt::format("key '{}' (or '{}')", anchor.keys[0], fmt::join(others, "', '"));
}

std::string found_text(const config::Field& field) {
  if (is_header(field.text)) return fmt::format("header '{}'", field.text);
  return fmt::format("'{}'", field.key);
}

const Anchor* anchor_at(const std::vector<Anchor>& anchors, int line) {
  for (const auto& a : anchors) {
    if (a.line == line) return &a;
  }
  return nullptr;
}

// Points at the likely cause when the layout looks shifted by one line.
std::string shift_hint(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors,
                       const Anchor& anchor) {
  const config::Field& field = config.at(anchor.line);
  const Anchor* next = anchor_at(anchors, anchor.line + 1);
  const Anchor* previous = anchor_at(anchors, anchor.line - 1);
  if ((next && matches(*next, field)) || matches(anchor, config.at(anchor.line - 1))) {
    return " (is a line missing above?)";
  }
  if ((previous && matches(*previous, field)) || matches(anchor, config.at(anchor.line + 1))) {
    return " (is there an extra line above?)";
  }
  return "";
}

}  // namespace

AnchorFindings check_anchors(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors) {
  std::vector<Diagnostic> found;
  bool structure_broken = false;
  const int last_physical = config.fields.empty() ? 0 : config.fields.back().physical_line;
  for (const auto& anchor : anchors) {
    const config::Field& field = config.at(anchor.line);
    if (matches(anchor, field)) continue;
    if (field.physical_line == 0) {
      found.push_back({config.path, last_physical, anchor.keys.empty() ? "" : anchor.keys[0],
                       fmt::format("the file ends after {} non-empty lines; expected {} at non-empty line {} "
                                   "(is the file truncated?)",
                                   config.size(), expected_text(anchor), anchor.line)});
      structure_broken = true;
      break;  // every later anchor is missing too
    }
    // A header where a key belongs, or anything else where a header belongs, moves a section.
    structure_broken = structure_broken || !anchor.header.empty() || is_header(field.text);
    found.push_back({config.path, field.physical_line, field.key,
                     fmt::format("expected {}, found {}{}", expected_text(anchor), found_text(field),
                                 shift_hint(config, anchors, anchor))});
  }
  if (structure_broken) return {std::move(found), {}};
  for (auto& note : found) {
    note.message = fmt::format("{}; the runner reads this line by position and never compares its key, so it is "
                               "accepted",
                               note.message.substr(0, note.message.find(" (is ")));
  }
  return {{}, std::move(found)};
}

}  // namespace tipc::dialect
