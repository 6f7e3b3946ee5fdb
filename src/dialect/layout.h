#pragma once
// A dialect whose runner reads another line layout (the PaddlePaddle/models tutorial
// runner: 32 lines, no autocast or inference-loop lines) names where each position of
// the reference layout (config/positions.h) lies in its files. The planner then plans
// the config as if it were laid out like the reference; positions the layout does not
// name read as empty lines.
#include <map>
#include <optional>
#include <string>

#include "config/train_infer_config.h"

namespace tipc::dialect {

// The reference position of a layout name (`epoch` -> 7), or nothing for an unknown name.
std::optional<int> reference_position(const std::string& name);

// The names reference_position knows, for error messages.
std::string layout_names();

// `config` with each reference position P reading the dialect's line layout[P]
// (the key, value, text and physical line move along; the path, the physical lines and
// the sections stay).
config::TrainInferConfig apply_layout(const config::TrainInferConfig& config, const std::map<int, int>& layout);

}  // namespace tipc::dialect
