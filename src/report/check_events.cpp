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
  if (stage.kind != plan::StageKind::kCheck || record.start_seconds < 0 || stage.argv.size() < 2) return;
  const double started = std::chrono::duration<double>(run_start_.time_since_epoch()).count() + record.start_seconds;
  if (const auto check = read_check_file(record.log_path, stage.argv[1], run::stage_cwd_path(repo_root_, stage), started)) {
    downstream_.check_finished(record, *check);
  }
}

}  // namespace tipc::report
