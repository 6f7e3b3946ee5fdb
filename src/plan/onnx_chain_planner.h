#pragma once
// The paddle2onnx chain's config (`paddle2onnx_params`), planned natively for a repository
// without test_paddle2onnx.sh: a `convert` stage (the `2onnx:` converter with its flags) and
// an `infer` stage per `--use_gpu` value, the ONNX model the converter saves as its model.
// Positional, as the runner reads it (docs/chains.md, "Native planning").
#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/chains.h"
#include "plan/plan.h"
#include "plan/planner.h"

namespace tipc::plan {

// `chain`: the paddle2onnx chain of configs/chains.yaml (its script keys, mode and status log).
Result<Plan> plan_paddle2onnx(const config::TrainInferConfig& config, const dialect::Chain& chain,
                              const PlanOptions& options);

}  // namespace tipc::plan
