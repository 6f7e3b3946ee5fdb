#include "compat/reference_status_log.h"

#include "plan/traced_status.h"

namespace tipc::compat {
namespace {

// The facts the reference's status_check sees for the stage's own line.
ReferenceCommandStatus command_status_of(const run::StageRecord& record) {
  const run::Observation& observed = record.observation;
  return {record.stage->service.has_value(), observed.exit_code, observed.trainer_log_found, std::nullopt};
}

}  // namespace

bool reference_line_reads_success(const ReferenceCommandStatus& status) {
  if (status.in_background) return true;
  if (status.reported_command_success) return *status.reported_command_success;
  if (status.trainer_log_exists) return *status.trainer_log_exists;
  return status.exit_code == 0;
}

void ReferenceStatusLog::run_started(const run::RunInfo& info) { open_logs(info, /*fresh=*/false); }

void ReferenceStatusLog::stage_started(const run::StageRecord& record) {
  if (record.stage->service) append_line(record, reference_line_reads_success(command_status_of(record)));
}

void ReferenceStatusLog::stage_finished(const run::StageRecord& record) {
  const bool tried = record.observation.started || !record.observation.launch_error.empty();
  if (!tried || record.stage->service) return;  // a service's line was written when it started
  ReferenceCommandStatus status = command_status_of(record);
  words_[{record.plan, record.stage->id}] = reference_line_reads_success(status);
  if (!record.stage->results_log.status_from.empty()) {
    const auto reported = words_.find({record.plan, record.stage->results_log.status_from});
    if (reported != words_.end()) status.reported_command_success = reported->second;
  }
  append_line(record, reference_line_reads_success(status));
}

void ReferenceStatusLog::append_line(const run::StageRecord& record, bool success) {
  const plan::Plan& plan = *record.plan;
  std::string opening = plan.banner.empty() ? "" : plan.banner + '\n';
  for (const auto& leading : plan.leading_status_lines) opening += leading + '\n';
  std::string lines;
  if (const auto line = plan::render_status_line(plan, *record.stage, success)) lines = *line + '\n';
  for (const auto& trailing : record.stage->results_log.trailing_status_lines) lines += trailing + '\n';
  append(plan, opening, lines);
}

}  // namespace tipc::compat
