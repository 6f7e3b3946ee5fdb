#include "run/outcome.h"

#include <csignal>
#include <cstring>

#include <fmt/format.h>

namespace tipc::run {

const char* to_string(Result result) {
  switch (result) {
    case Result::kPass: return "PASS";
    case Result::kFail: return "FAIL";
    case Result::kTimeout: return "TIMEOUT";
    case Result::kUnsupported: return "UNSUPPORTED";
    case Result::kSkipped: return "SKIPPED";
    case Result::kUnresolved: return "UNRESOLVED";
  }
  return "?";
}

bool is_failure(Result result) {
  return result == Result::kFail || result == Result::kTimeout || result == Result::kUnresolved;
}

Verdict classify(const Observation& o) {
  if (!o.launch_error.empty()) return {Result::kUnresolved, "could not start: " + o.launch_error};
  if (!o.started) return {Result::kSkipped, o.interrupted ? "interrupted before it started" : "not started"};
  if (o.timed_out) return {Result::kTimeout, fmt::format("timed out after {:g} s", o.timeout_seconds)};
  if (o.interrupted) return {Result::kSkipped, "interrupted while running"};
  if (o.signal) return {Result::kFail, fmt::format("killed by signal {} ({})", *o.signal, strsignal(*o.signal))};
  if (!o.exit_code) return {Result::kUnresolved, "no exit status was observed"};
  if (*o.exit_code != 0) return {Result::kFail, fmt::format("exit code {}", *o.exit_code)};
  if (!o.log_findings.empty()) return {Result::kFail, "log check: " + o.log_findings.front()};
  return {Result::kPass, ""};
}

}  // namespace tipc::run
