#include "plan/plan.h"

#include <fmt/format.h>

#include "plan/template.h"

namespace tipc::plan {

Result<std::string> render_status_line(const Plan& plan, const Stage& stage, bool success) {
  const std::string word = success ? "Run successfully" : "Run failed";
  if (stage.traced_status) return stage.traced_status->before + word + stage.traced_status->after;
  if (plan.status_line.empty()) return fail(Error::plain(fmt::format("stage {} writes no status line", stage.id)));
  const Vars vars{{"status_word", word},
                  {"model_name", plan.model_name},
                  {"command", stage.command},
                  {"status_log", stage.status_log}};
  return render(plan.status_line, vars);
}

}  // namespace tipc::plan
