#include "dialect/anchor_check.h"

#include <optional>

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
  if (field.text.find_first_not_of(" \t\r") == std::string::npos) return "a line of blanks only (it counts as a line)";
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

// A key anchor needs a key line, a header anchor its header: what the runner's positions rest on.
bool fits(const Anchor& anchor, const config::Field& field) {
  if (!anchor.header.empty()) return matches(anchor, field);
  return field.physical_line != 0 && !is_header(field.text);
}

// One line missing (shift -1) or extra (+1) above `anchors[first]`, the first anchor that
// does not match: every later anchor must fit its line `shift` away, match more keys there
// than in place, and none be found one line further off (a second gap). A missing line
// may be the anchor's own.
bool shifted_from(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors, std::size_t first,
                  int shift) {
  const bool own_line_missing = shift < 0 && !matches(anchors[first], config.at(anchors[first].line + shift));
  if (shift > 0 && !matches(anchors[first], config.at(anchors[first].line + shift))) return false;
  int in_place = 0, moved = 0;
  for (std::size_t j = own_line_missing ? first + 1 : first; j < anchors.size(); ++j) {
    const int line = anchors[j].line + shift;
    if (!fits(anchors[j], config.at(line))) return false;
    const bool found = matches(anchors[j], config.at(line));
    if (!found && (matches(anchors[j], config.at(line - 1)) || matches(anchors[j], config.at(line + 1)))) return false;
    in_place += matches(anchors[j], config.at(anchors[j].line)) ? 1 : 0;
    moved += found ? 1 : 0;
  }
  return moved > in_place;
}

// The one diagnostic for a layout shifted by one line: where the line went missing (or
// came in), instead of a mismatch on every anchor below it.
Diagnostic gap_at(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors, std::size_t first,
                  int shift) {
  const Anchor& anchor = anchors[first];
  const int previous = first == 0 ? 0 : anchors[first - 1].line;  // the last anchor in place
  const config::Field& here = config.at(anchor.line);
  const std::string key = anchor.keys.empty() ? "" : anchor.keys[0];
  const char* direction = shift < 0 ? "up" : "down";
  const bool own_line = shift < 0 ? !matches(anchor, config.at(anchor.line - 1)) : previous + 1 == anchor.line;
  if (own_line) {
    const std::string what = shift < 0 ? fmt::format(
                                             "line {} seems to be missing: expected {} here, found {}, which "
                                             "belongs on the next line",
                                             here.physical_line, expected_text(anchor), found_text(here))
                                       : fmt::format("line {} seems to be extra: found {} where {} belongs",
                                                     here.physical_line, found_text(here), expected_text(anchor));
    return {config.path, here.physical_line, key,
            fmt::format("{}; every later line is shifted {} by one ({} this line)", what, direction,
                        shift < 0 ? "add the missing line above" : "delete")};
  }
  const config::Field& after = config.at(previous + 1);
  const config::Field& moved = config.at(anchor.line + shift);
  const std::string where =
      fmt::format("between line {} and line {}", config.at(previous).physical_line, moved.physical_line);
  return {config.path, after.physical_line, key,
          fmt::format("{}: {} is on line {}, one line {} its place, and every later line is shifted {} by one ({})",
                      shift < 0 ? "a line seems to be missing " + where : "an extra line seems to be " + where,
                      expected_text(anchor), moved.physical_line, shift < 0 ? "above" : "below", direction,
                      shift < 0 ? "add the missing line between them" : "delete the extra line")};
}

// The gap is below the anchors in place (a renamed key among them is still in place).
std::optional<Diagnostic> one_line_gap(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors) {
  for (std::size_t first = 0; first < anchors.size(); ++first) {
    const config::Field& field = config.at(anchors[first].line);
    if (matches(anchors[first], field)) continue;
    for (const int shift : {-1, 1}) {
      if (shifted_from(config, anchors, first, shift)) return gap_at(config, anchors, first, shift);
    }
    if (!fits(anchors[first], field)) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

AnchorFindings check_anchors(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors) {
  if (auto gap = one_line_gap(config, anchors)) return {{std::move(*gap)}, {}};
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
    note.message = fmt::format(
        "{}; the runner reads this line by position and never compares its key, so it is "
        "accepted",
        note.message.substr(0, note.message.find(" (is ")));
  }
  return {{}, std::move(found)};
}

}  // namespace tipc::dialect
