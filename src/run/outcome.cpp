#include "run/outcome.h"

#include <csignal>
#include <cstring>

#include <fmt/format.h>

namespace tipc::run {

bool is_failure(Status status) {
  return status == Status::kFail || status == Status::kTimeout || status == Status::kUnresolved;
}

bool is_passed(Status status) { return status == Status::kPass || status == Status::kFlaky; }

bool is_retryable(Status status) { return status == Status::kFail || status == Status::kTimeout; }

Verdict classify(const Observation& o) {
  if (!o.launch_error.empty()) return {Status::kUnresolved, "could not start: " + o.launch_error};
  if (!o.started) return {Status::kSkipped, o.interrupted ? "interrupted before it started" : "not started"};
  if (o.timed_out && o.idle_seconds > 0) return {Status::kTimeout, fmt::format("no output for {:g} s", o.idle_seconds)};
  if (o.timed_out) return {Status::kTimeout, fmt::format("timed out after {:g} s", o.timeout_seconds)};
  if (o.interrupted) return {Status::kSkipped, "interrupted while running"};
  if (!o.cluster_failure.empty()) return {Status::kFail, o.cluster_failure};
  if (o.signal) return {Status::kFail, fmt::format("killed by signal {} ({})", *o.signal, strsignal(*o.signal))};
  if (!o.exit_code) return {Status::kUnresolved, "no exit status was observed"};
  if (*o.exit_code != 0) return {Status::kFail, fmt::format("exit code {}", *o.exit_code)};
  if (!o.log_findings.empty()) return {Status::kFail, "log check: " + o.log_findings.front()};
  return {Status::kPass, ""};
}

}  // namespace tipc::run
