#include "run/events.h"

#include "core/error.h"

namespace tipc::run {

int RunSummary::count(Status status) const {
  int n = 0;
  for (const auto& s : stages) n += s.verdict.result == status ? 1 : 0;
  return n;
}

int RunSummary::exit_code(bool strict) const {
  if (interrupted) return kExitInterrupted;
  for (const auto& s : stages) {
    if (is_failure(s.verdict.result)) return kExitFailed;
    if (strict && s.verdict.result == Status::kUnsupported) return kExitFailed;
  }
  return kExitPassed;
}

}  // namespace tipc::run
