#include "plan/alignment_stages.h"

#include <fnmatch.h>

#include <fmt/format.h>

#include <algorithm>

#include "core/vocabulary.h"
#include "plan/shell_words.h"
#include "plan/template.h"

namespace tipc::plan {
namespace {

bool follows(const config::AlignmentCheckSetting& check, const Stage& stage) {
  if (stage.kind == StageKind::kCheck) return false;
  if (check.after.kind) return stage.kind == *check.after.kind;
  return fnmatch(check.after.id_glob.c_str(), stage.id.c_str(), 0) == 0;
}

bool applies_to(const config::AlignmentCheckSetting& check, const Plan& plan) {
  return check.modes.empty() || std::find(check.modes.begin(), check.modes.end(), plan.mode) != check.modes.end();
}

// "<producer log without .log>_check_<name>": the check's log (.log) and its values for
// the reports (.json) sit beside the log of the stage it checks.
std::string check_files_stem(const Stage& producer, const std::string& name) {
  const std::string& log = producer.log;
  const bool has_suffix = log.size() > 4 && log.compare(log.size() - 4, 4, ".log") == 0;
  return fmt::format("{}_check_{}", has_suffix ? log.substr(0, log.size() - 4) : log, name);
}

Result<Stage> check_stage(const Plan& plan, const Stage& producer, const config::AlignmentCheckSetting& check,
                          const std::string& binary) {
  const Vars vars{{"model_dir", producer.model_dir},
                  {"log", producer.log},
                  {"output_dir", plan.output_dir},
                  {"model", plan.model_name},
                  {"mode", plan.mode}};
  const std::string stem = check_files_stem(producer, check.name);
  Stage stage;
  stage.id = producer.id + "/check/" + check.name;
  stage.kind = StageKind::kCheck;
  stage.check = CheckSpec{check.subcommand, stem + ".json"};
  stage.argv = {binary, to_string(check.subcommand)};
  for (const auto& argument : check.arguments) {
    if (argument.find("{model_dir}") != std::string::npos && producer.model_dir.empty()) {
      return fail(Error::at(
          check.source, 0, check.name,
          fmt::format("check '{}' names {{model_dir}}, but stage {} has no model directory", check.name, producer.id)));
    }
    auto rendered = render(argument, vars);
    if (!rendered) {
      return fail(
          Error::at(check.source, 0, check.name,
                    fmt::format("check '{}': {} (known: {{model_dir}}, {{log}}, {{output_dir}}, {{model}}, {{mode}})",
                                check.name, rendered.error().str())));
    }
    stage.argv.push_back(*rendered);
  }
  stage.argv.insert(stage.argv.end(), {"--json", stage.check->result_file});
  // Its paths ({log}, the settings' files) are the run directory's, not those of a stage
  // that runs elsewhere (a serving client in its serving directory).
  stage.cwd = plan.run_dir;
  stage.env["CUDA_VISIBLE_DEVICES"] = std::nullopt;
  stage.log = stem + ".log";
  stage.deps = {producer.id};
  stage.results_log.command = join_shell_words(stage.argv);
  stage.results_log.shell_text = stage.results_log.command;
  stage.results_log.status_log = stage.log;
  return stage;
}

}  // namespace

Result<void> add_alignment_stages(std::vector<Plan>& plans, const std::vector<config::AlignmentCheckSetting>& checks,
                                  const std::string& tipc_run_binary) {
  for (const auto& check : checks) {
    std::size_t added = 0, applicable_plans = 0;
    for (Plan& plan : plans) {
      if (!applies_to(check, plan)) continue;
      ++applicable_plans;
      const std::size_t producers = plan.stages.size();  // checks never follow checks
      for (std::size_t i = 0; i < producers; ++i) {
        if (!follows(check, plan.stages[i])) continue;
        plan.stages.push_back(TRY(check_stage(plan, plan.stages[i], check, tipc_run_binary)));
        ++added;
      }
    }
    if (added == 0 && applicable_plans > 0) {
      return fail(Error::at(check.source, 0, "after",
                            fmt::format("alignment check '{}': after '{}' matches no stage (a stage kind: {}; or a "
                                        "glob over stage ids, see --dry-run)",
                                        check.name, check.after.text, known_words(kAllStageKinds))));
    }
  }
  return {};
}

}  // namespace tipc::plan
