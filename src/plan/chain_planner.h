#pragma once
// Native planning of the chains other than train/inference, for a repository that has a
// config of such a chain but not the chain's runner to trace (the demo): one pure planner
// per positional config format, chosen by the config's chain (configs/chains.yaml).
#include <string>
#include <string_view>

#include "config/config_text.h"
#include "config/train_infer_config.h"
#include "core/error.h"
#include "plan/plan.h"
#include "plan/planner.h"

namespace tipc::plan {

// Whether the chain of that name (chains.yaml) has a native planner.
bool has_chain_planner(std::string_view chain);

// The plan of a config of that chain; an error when the chain has no native planner.
Result<Plan> plan_chain(const config::TrainInferConfig& config, std::string_view chain, const PlanOptions& options);

// Splits the config's text (read once, config/config_text.h), then plans it.
Result<Plan> plan_chain_config(const config::ConfigText& text, std::string_view chain, const PlanOptions& options);

}  // namespace tipc::plan
