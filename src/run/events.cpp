#include "run/events.h"

namespace tipc::run {

int RunSummary::count(Status status) const {
  int n = 0;
  for (const auto& s : stages) n += s.verdict.result == status ? 1 : 0;
  return n;
}

RunVerdict RunSummary::verdict() const {
  std::vector<StageResult> results;
  for (const auto& s : stages) results.push_back({s.verdict.result, s.verdict.reason, false});
  return judge(results, interrupted);
}

}  // namespace tipc::run
