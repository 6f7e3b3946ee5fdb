#pragma once
// Strict validation of the positional layout (spec D4): the anchor keys of the
// format are checked by name, so a missing or extra line is reported instead of
// silently shifting the meaning of every later line.
#include <vector>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"

namespace tipc::dialect {

// Every mismatch, in line order; empty when the layout is sound.
std::vector<Diagnostic> check_anchors(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors);

}  // namespace tipc::dialect
