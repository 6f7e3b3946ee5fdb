#pragma once
// Native planning of the chains other than train/inference, for a repository that has a
// config of such a chain but not the chain's runner to trace (the demo): one pure planner
// per positional config format, for the chains whose `planner:` in configs/chains.yaml is
// `native`. Adding one is a planner file and a line in chain_planner.cpp's registry.
#include <string>
#include <string_view>

#include "config/config_text.h"
#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "plan/plan.h"
#include "plan/planner.h"

namespace tipc::plan {

// Whether tipc-run has a native planner for the chain of that name.
bool has_chain_planner(std::string_view chain);

// The plan of a config of that chain; an error when the chain has no native planner or its
// table does not say `planner: native`.
Result<Plan> plan_chain(const config::TrainInferConfig& config, const dialect::Chain& chain,
                        const PlanOptions& options);

// Splits the config's text (read once, config/config_text.h), then plans it.
Result<Plan> plan_chain_config(const config::ConfigText& text, const dialect::Chain& chain, const PlanOptions& options);

}  // namespace tipc::plan
