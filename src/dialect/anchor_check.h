#pragma once
// Validation of the positional layout (D4 in docs/reference-runner.md) in default mode. The runners read every
// line by position, so what decides whether a config is sound is its structure: the
// `===...===` section headers at their lines and a key:value line wherever the layout has
// one. A key named differently from the usual one (quant_train in the pact_train slot,
// amp_train in the norm_train slot) is a name the runner never compares, so alone it is
// only a note; once the structure is broken, the name mismatches point at the missing or
// extra line and are reported with the errors.
#include <vector>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"

namespace tipc::dialect {

struct AnchorFindings {
  std::vector<Diagnostic> errors;  // in line order; empty when the layout is sound
  std::vector<Diagnostic> notes;   // renamed keys in a sound layout
};

AnchorFindings check_anchors(const config::TrainInferConfig& config, const std::vector<Anchor>& anchors);

}  // namespace tipc::dialect
