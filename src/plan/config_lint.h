#pragma once
// Config mistakes the reference runner passes without a word (issue 24), each with the
// file, line and key and a short fix:
// * a parameter line without ':' — the runner reads the whole line as a key with an empty
//   value, so the parameter disappears from the command: an error;
// * a `|` list shorter than the list it is paired with by position: use_gpu (L5) with the
//   gpu list (L4, docs/config-format.md#gpu_list-and-use_gpu) — the trains of the later gpu elements lose the parameter — and
//   PaddleDetection's quant flags (L39) with its infer modes (L38, docs/config-format.md#whole-inference): a warning, as
//   the reference's pairing is deliberate and upstream configs rely on one value for two
//   elements.
// A shifted layout is dialect/anchor_check.h's. Default mode only: compat is the reference.
#include <vector>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"

namespace tipc::plan {

struct LintFindings {
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;
};

// `dialect`: the config's layout and use_gpu pairing; nullptr when none applies (then only
// the line checks).
LintFindings lint_config(const config::TrainInferConfig& config, const dialect::Dialect* dialect);

}  // namespace tipc::plan
