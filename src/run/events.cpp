#include "run/events.h"

#include <map>

namespace tipc::run {

int RunSummary::count(Status status) const {
  int n = 0;
  for (const auto& s : stages) n += s.verdict.result == status ? 1 : 0;
  return n;
}

RunVerdict RunSummary::verdict(ConfigCount configs) const {
  std::vector<StageResult> results;
  std::map<const plan::Plan*, int> plan_number;
  for (const auto& s : stages) {
    const int plan = plan_number.emplace(s.plan, static_cast<int>(plan_number.size())).first->second;
    results.push_back({s.verdict.result, s.verdict.reason, false, plan, s.stage->id, s.stage->deps, s.resumed,
                       s.stage->kind == plan::StageKind::kSetup});
  }
  return judge(results, interrupted, configs);
}

}  // namespace tipc::run
