#include "config/train_infer_config.h"

namespace tipc::config {

const Field& TrainInferConfig::at(int logical_line) const {
  static const Field kEmpty;
  if (logical_line < 1 || logical_line > size()) return kEmpty;
  return fields[static_cast<std::size_t>(logical_line - 1)];
}

const Field* TrainInferConfig::field_named(const std::string& key) const {
  for (const auto& field : fields) {
    if (field.key == key) return &field;
  }
  return nullptr;
}

const std::string& TrainInferConfig::value_named(const std::string& key) const {
  static const std::string kNone;
  const Field* field = field_named(key);
  return field ? field->value : kNone;
}

TrainInferConfig split_config(const ConfigText& text, const SplitRules& rules, LineView view) {
  TrainInferConfig config;
  config.path = text.path;
  config.physical.assign(static_cast<std::size_t>(text.physical_line_count), std::string());
  for (const auto& line : text.lines) {
    if (!line.counts(view)) continue;
    std::string read = line.read_as(view);
    KeyValue kv = split_key_value(read, rules);
    config.physical[static_cast<std::size_t>(line.physical_line - 1)] = read;
    config.fields.push_back({std::move(kv.key), std::move(kv.value), std::move(read), line.physical_line});
  }
  return config;
}

}  // namespace tipc::config
