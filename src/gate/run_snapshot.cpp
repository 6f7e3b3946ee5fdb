#include "gate/run_snapshot.h"

namespace tipc::gate {

RunSnapshot snapshot_of(const report::RunReport& report, std::string label) {
  RunSnapshot snapshot{std::move(label), {}};
  for (const auto& plan : report.plans) {
    for (const auto& stage : plan.stages) {
      snapshot.stages.push_back(
          {plan.config, plan.mode, stage.id, stage.kind, stage.result, stage.seconds, figures_of(stage)});
    }
  }
  return snapshot;
}

}  // namespace tipc::gate
