#pragma once
// The planner's whole-inference branch (docs/config-format.md#whole-inference): a MODE the
// dialect lists in `whole_infer.modes` trains nothing; it exports the config's pretrained
// models and runs the inference matrix over each, in the dialect's style (export_list: OCR
// and Seg, kl_quant: Clas, mode_list: Det). Apart from the train branch (planner.cpp)
// because the two share no state: this branch only needs stages made the planner's way
// (StageEmitter) and the rules both branches follow.
#include <optional>
#include <string>

#include "config/train_infer_config.h"
#include "core/error.h"
#include "dialect/dialect.h"
#include "plan/plan.h"
#include "plan/planner.h"
#include "plan/template.h"

namespace tipc::plan::detail {

// What the branch asks of the planner that runs it: a stage with a unique id, its commands
// rendered and any shell construct warned about, and the inference matrix, which the train
// branch runs after its exports too.
class StageEmitter {
 public:
  virtual ~StageEmitter() = default;
  virtual Result<Stage*> add_stage(StageKind kind, const std::string& id, const dialect::StageTemplate& tpl, Vars& vars,
                                   const std::string& cwd) = 0;
  virtual Result<void> inference_matrix(Vars vars, const std::string& prefix, const std::string& dep,
                                        const std::string& quant, const std::optional<std::string>& device,
                                        const std::string& cwd) = 0;
  // A stage's CUDA_VISIBLE_DEVICES: the runner's variable or the stage's own GPUs, by the rules.
  virtual std::optional<std::string> devices(const std::optional<std::string>& own) const = 0;
};

// What the branch plans from.
struct WholeInferInput {
  const config::TrainInferConfig& config;
  const dialect::Dialect& dialect;
  const PlanOptions& options;
  const Vars& base;  // the variables every stage starts from (model_name, log_dir, key_N, ...)
};

// The branch's exports and inference stages, added through `emitter` in the reference's
// order. The planner sets its runner variable to the gpu_id argument first, where one is given.
Result<void> plan_whole_infer(const WholeInferInput& input, StageEmitter& emitter);

// Parameter emission rule E(key, value), docs/config-format.md#null-empty-and-the-emission-rule-ekey-value.
std::string emit(const std::string& key, const std::string& value);

// `[ ${x} != "y" ]` with an unquoted empty x is a syntax error and evaluates false.
bool test_differs(const std::string& value, const std::string& other);

}  // namespace tipc::plan::detail
