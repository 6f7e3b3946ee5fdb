#pragma once
// What the runner's commands silently got wrong, found by reading the config natively
// next to a traced plan: a shifted line (D4 in docs/reference-runner.md), a dropped or ignored mode override
// (D5 in docs/reference-runner.md), a value cut at its second colon (D3 in docs/reference-runner.md), an empty trainer script (D13 in docs/reference-runner.md), and the
// lints of plan/config_lint.h (a line without ':', a short paired list). Each is a
// warning with file, line and key; --strict turns them into an error.
#include <vector>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "dialect/dialect.h"
#include "plan/plan.h"

namespace tipc::plan {

// `native`: the repository's detected dialect, whose anchors check the layout (D4 in docs/reference-runner.md);
// nullptr when none applies. `script_keys`: the config's chain's (dialect/chains.h), which
// say what its script lines are. The config is read from its lines' text, whatever split
// rules produced it.
std::vector<Diagnostic> cross_check(const config::TrainInferConfig& config, const dialect::Dialect* native,
                                    const std::vector<dialect::ScriptKey>& script_keys, const Plan& traced);

// --strict: every cross-check finding is an error (exit 2), reported all at once.
Result<void> strict_cross_check(std::vector<Diagnostic> findings);

}  // namespace tipc::plan
