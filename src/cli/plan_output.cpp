#include "cli/plan_output.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/plural.h"
#include "plan/plan_json.h"
#include "plan/shell_words.h"

namespace tipc::cli {

std::string stage_json_line(const plan::Stage& stage) {
  // Replace invalid UTF-8 instead of throwing: configs are checked, but argv may still carry odd bytes.
  return plan::stage_json(stage).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void print_plan_jsonl(const plan::Plan& plan, std::ostream& out) {
  for (const auto& stage : plan.stages) out << stage_json_line(stage) << '\n';
}

namespace {

std::string env_text(const plan::Stage& stage) {
  std::string out;
  for (const auto& [name, value] : stage.env) {
    out += value ? fmt::format("{}={} ", name, plan::quote_shell_word(*value)) : fmt::format("-u {} ", name);
  }
  return out.empty() ? out : "env " + out;
}

}  // namespace

void print_plan_text(const plan::Plan& plan, std::ostream& out) {
  out << fmt::format("# {}: {} {} (dialect {}{}): {}, output {}\n", plan.config_path, plan.model_name, plan.mode,
                     plan.dialect, plan.compat ? ", compat" : "", plural(plan.stages.size(), "stage"), plan.output_dir);
  for (const auto& stage : plan.stages) {
    out << fmt::format("[{}] {}\n", plan::to_string(stage.kind), stage.id);
    out << fmt::format("    cd {} && {}{}\n", stage.cwd, env_text(stage), plan::join_shell_words(stage.argv));
    out << fmt::format("    log {}{}{}{}\n", stage.log,
                       stage.deps.empty() ? "" : "  after " + fmt::format("{}", fmt::join(stage.deps, ", ")),
                       stage.after.empty() ? "" : "  once ended " + fmt::format("{}", fmt::join(stage.after, ", ")),
                       stage.needs.gpus ? fmt::format("  gpus {}", stage.needs.gpus) : "");
    if (stage.unsupported) out << fmt::format("    UNSUPPORTED: {}\n", *stage.unsupported);
  }
}

}  // namespace tipc::cli
