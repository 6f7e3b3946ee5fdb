#include "report/check_events.h"

#include "report/check_details.h"
#include "run/scheduler.h"

namespace tipc::report {

void CheckEventSource::run_started(const run::RunInfo& info) {
  run_start_ = std::chrono::system_clock::now();
  downstream_.run_started(info);
}

void CheckEventSource::stage_finished(const run::StageRecord& record) {
  downstream_.stage_finished(record);
  const plan::Stage& stage = *record.stage;
  if (!stage.check || record.start_seconds < 0) return;
  const double started = std::chrono::duration<double>(run_start_.time_since_epoch()).count() + record.start_seconds;
  const std::string cwd = run::stage_cwd_path(repo_root_, stage);
  if (const auto check = read_check_file(stage.check->kind, check_result_path(*stage.check, cwd), cwd, started)) {
    checks_.check_finished(record, *check);
  }
}

}  // namespace tipc::report
