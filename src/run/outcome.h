#pragma once
// The closed result vocabulary (lit's model) and the pure classification of a
// finished stage. Every planned stage ends with exactly one Result.
#include <optional>
#include <string>
#include <vector>

namespace tipc::run {

// FLAKY: failed, then passed when --retries ran it again (pytest-rerunfailures' "rerun"): it
// counts as passed for its dependents and the exit code, and every report names it.
enum class Status { kPass, kFail, kTimeout, kUnsupported, kSkipped, kUnresolved, kFlaky };
inline constexpr Status kAllStatuses[] = {Status::kPass,    Status::kFail,       Status::kTimeout, Status::kUnsupported,
                                          Status::kSkipped, Status::kUnresolved, Status::kFlaky};

const char* to_string(Status status);
std::optional<Status> status_from_string(const std::string& text);  // "PASS" -> kPass; nullopt if unknown
bool is_failure(Status status);  // FAIL, TIMEOUT, UNRESOLVED
bool is_passed(Status status);   // PASS, FLAKY: what dependents and the exit code take as passed
bool is_retryable(Status status);  // FAIL, TIMEOUT: what --retries runs again (UNRESOLVED never started)

// What the executor observed about one stage.
struct Observation {
  bool started = false;
  std::optional<int> exit_code;        // set when the process exited
  std::optional<int> signal;           // set when it was killed by a signal
  bool timed_out = false;
  double timeout_seconds = 0;
  bool interrupted = false;            // tipc-run was asked to stop while it ran
  std::string launch_error;            // tipc-run could not start it (UNRESOLVED)
  std::vector<std::string> log_findings;  // log checks that matched (traceback, nan loss, ...)
  std::optional<bool> trainer_log_found;  // for stages whose trainer writes its own log (spec D2)
};

struct Verdict {
  Status result = Status::kUnresolved;
  std::string reason;
};

// One pure function decides; printers and reporters only display the verdict.
Verdict classify(const Observation& observation);

}  // namespace tipc::run
