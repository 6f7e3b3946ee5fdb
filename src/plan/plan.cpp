#include "plan/plan.h"

#include "plan/template.h"

namespace tipc::plan {

const char* to_string(StageKind kind) {
  switch (kind) {
    case StageKind::kTrain: return "train";
    case StageKind::kEval: return "eval";
    case StageKind::kExport: return "export";
    case StageKind::kInfer: return "infer";
    case StageKind::kCheck: return "check";
  }
  return "?";
}

Result<std::string> render_status_line(const Plan& plan, const Stage& stage, bool success) {
  const Vars vars{{"word", success ? "Run successfully" : "Run failed"},
                  {"model", plan.model_name},
                  {"cmd", stage.command},
                  {"status_log", stage.status_log}};
  return render(plan.status_line, vars);
}

}  // namespace tipc::plan
