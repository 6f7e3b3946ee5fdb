#pragma once
// The parsed config: every logical line split into key and value, with the file
// and physical line kept for diagnostics. Positions are looked up with at(L).
#include <string>
#include <vector>

#include "config/config_text.h"
#include "config/key_value.h"

namespace tipc::config {

struct Field {
  std::string key;
  std::string value;
  std::string text;       // the whole line
  int physical_line = 0;  // 0: past the end of the file (reads as empty, docs/config-format.md#logical-lines)
};

struct TrainInferConfig {
  std::string path;
  std::vector<Field> fields;          // index = logical line - 1
  std::vector<std::string> physical;  // raw physical lines, for the to-static header lookup

  // Logical line L (1-based); a position past the end reads as an empty line.
  const Field& at(int logical_line) const;
  const std::string& key(int logical_line) const { return at(logical_line).key; }
  const std::string& value(int logical_line) const { return at(logical_line).value; }
  int size() const { return static_cast<int>(fields.size()); }
  // The first line with this key, wherever it is (nullptr when none): for layouts whose
  // positions are not the standard ones.
  const Field* field_named(const std::string& key) const;
  const std::string& value_named(const std::string& key) const;
};

// The logical lines `view` reads (default mode: normalised; compat: the reference's bytes).
TrainInferConfig split_config(const ConfigText& text, const SplitRules& rules, LineView view = LineView::kNormalised);

}  // namespace tipc::config
