#include "report/results_log_reporter.h"

#include "plan/traced_status.h"

namespace tipc::report {

bool line_reads_success(run::Status result) { return run::is_passed(result); }

void ResultsLogReporter::run_started(const run::RunInfo& info) { open_logs(info, !keep_existing_); }

void ResultsLogReporter::stage_finished(const run::StageRecord& record) {
  if (!record.observation.started) return;
  const plan::Plan& plan = *record.plan;
  std::string line;
  if (const auto rendered = plan::render_status_line(plan, *record.stage, line_reads_success(record.verdict.result))) {
    line = plan::without_escape_codes(*rendered) + '\n';
  }
  append(plan, plan.banner.empty() ? "" : plan.banner + '\n', line);
}

}  // namespace tipc::report
