#pragma once
// The Python serving chain's config (`serving_params`), planned natively for a repository
// without test_serving_infer_python.sh: a `convert` stage (`trans_model:`, when given), and per
// `web_service` device value a `service` stage (the server, ready when the port its
// arguments name accepts connections) and an `infer` stage (the client, `pipline:` or `pipeline:`)
// depending on it. Positional, as the runner reads it (docs/chains.md, "Native planning").
#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "plan/plan.h"
#include "plan/planner.h"

namespace tipc::plan {

// `chain`: the serving_infer_python chain of configs/chains.yaml (its script keys, mode and
// status log).
Result<Plan> plan_serving(const config::TrainInferConfig& config, const dialect::Chain& chain,
                          const PlanOptions& options);

}  // namespace tipc::plan
