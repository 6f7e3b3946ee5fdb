#pragma once
// The pure classification of a finished stage into one result of the closed vocabulary
// (core/stage_result.h).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/stage_result.h"

namespace tipc::run {

// The results live in core (core/stage_result.h); these are the names the run's users
// have always written.
using Status = tipc::StageResult;
using tipc::to_string;
inline constexpr const auto& kAllStatuses = tipc::kAllStageResults;
inline std::optional<Status> status_from_string(std::string_view text) { return stage_result_from_string(text); }

bool is_failure(Status status);    // FAIL, TIMEOUT, UNRESOLVED
bool is_passed(Status status);     // PASS, FLAKY: what dependents and the exit code take as passed
bool is_retryable(Status status);  // FAIL, TIMEOUT: what --retries runs again (UNRESOLVED never started)

// What the executor observed about one stage.
struct Observation {
  bool started = false;
  std::optional<int> exit_code;  // set when the process exited
  std::optional<int> signal;     // set when it was killed by a signal
  bool timed_out = false;
  double timeout_seconds = 0;
  double idle_seconds = 0;                // timed out because it printed nothing for this long (timeouts: idle)
  bool interrupted = false;               // tipc-run was asked to stop while it ran
  std::string launch_error;               // tipc-run could not start it (UNRESOLVED)
  std::vector<std::string> log_findings;  // log checks that matched (traceback, nan loss, ...)
  std::string cluster_failure;            // the cluster ended it (Finished::cluster_failure)
  std::optional<bool>
      trainer_log_found;  // for stages whose trainer writes its own log (D2 in docs/reference-runner.md)
};

struct Verdict {
  Status result = Status::kUnresolved;
  std::string reason;
};

// One pure function decides; printers and reporters only display the verdict.
Verdict classify(const Observation& observation);

}  // namespace tipc::run
