#include "run/prepare_scripts.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/locations.h"

namespace tipc::run {
namespace fs = std::filesystem;
namespace {

// The repository's own prepare.sh for one config, as the reference workflow runs it before
// the runner: a one-stage plan, whose output is appended to test_tipc/output/prepare.log.
plan::Plan prepare_plan(const std::string& config, const std::string& mode) {
  plan::Stage stage;
  stage.id = "prepare";
  stage.kind = plan::StageKind::kOther;
  stage.argv = {"bash", "test_tipc/prepare.sh", fs::absolute(config).string(), mode};
  stage.cwd = ".";
  stage.log = fmt::format("{}/prepare.log", kOutputTree);
  plan::Plan plan;
  plan.config_path = config;
  plan.mode = mode;
  plan.stages.push_back(std::move(stage));
  return plan;
}

}  // namespace

Result<void> run_prepare_scripts(const std::vector<plan::Plan>& plans, Executor& executor, SchedulerOptions scheduler,
                                 const std::function<bool()>& interrupted) {
  scheduler.appended_logs = {plan::StageKind::kOther};
  Listener quiet;
  for (const auto& planned : plans) {
    const std::string& config = planned.config_path;
    const plan::Plan plan = prepare_plan(config, planned.mode);
    const auto summary = run_stages({&plan}, executor, quiet, scheduler, interrupted);
    if (summary.interrupted) {
      return fail(Error{{Diagnostic{config, 0, "", "interrupted during test_tipc/prepare.sh"}}, kExitInterrupted});
    }
    const StageRecord& prepare = summary.stages.front();
    if (prepare.verdict.result != Status::kPass) {
      return fail(Error{{Diagnostic{config, 0, "",
                                    fmt::format("test_tipc/prepare.sh failed ({}); see {}", prepare.verdict.reason,
                                                prepare.log_path)}},
                        kExitFailed});
    }
  }
  return {};
}

}  // namespace tipc::run
