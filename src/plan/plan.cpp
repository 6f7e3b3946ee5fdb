#include "plan/plan.h"

#include <fmt/format.h>

#include "plan/template.h"

namespace tipc::plan {

const char* to_string(StageKind kind) {
  switch (kind) {
    case StageKind::kTrain: return "train";
    case StageKind::kEval: return "eval";
    case StageKind::kExport: return "export";
    case StageKind::kInfer: return "infer";
    case StageKind::kCheck: return "check";
    case StageKind::kConvert: return "convert";
    case StageKind::kService: return "service";
    case StageKind::kOther: return "other";
    case StageKind::kSetup: return "setup";
  }
  return "?";
}

std::optional<StageKind> stage_kind_from_string(std::string_view text) {
  for (const StageKind kind : kAllStageKinds) {
    if (text == to_string(kind)) return kind;
  }
  return std::nullopt;
}

Result<std::string> render_status_line(const Plan& plan, const Stage& stage, bool success) {
  const std::string word = success ? "Run successfully" : "Run failed";
  const ResultsLogFields& fields = stage.results_log;
  if (fields.traced_status) return fields.traced_status->before + word + fields.traced_status->after;
  if (plan.status_line.empty()) return fail(Error::plain(fmt::format("stage {} writes no status line", stage.id)));
  const Vars vars{{"status_word", word},
                  {"model_name", plan.model_name},
                  {"command", fields.command},
                  {"status_log", fields.status_log}};
  return render(plan.status_line, vars);
}

}  // namespace tipc::plan
