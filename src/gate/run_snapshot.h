#pragma once
// What a comparison needs of a run, whatever it was loaded from (an output directory's
// state, a bundle's report.json, the run history): each stage's identity, result and
// figures. The run history stores exactly this.
#include <optional>
#include <string>
#include <vector>

#include "gate/figures.h"
#include "report/run_report.h"
#include "run/outcome.h"

namespace tipc::gate {

struct StageSnapshot {
  std::string config, mode, stage;  // its identity across runs: config as given, MODE, stage id
  plan::StageKind kind = plan::StageKind::kOther;
  run::Status result = run::Status::kSkipped;
  std::optional<double> seconds;
  std::vector<Figure> figures;
};

struct RunSnapshot {
  std::string label;                  // how the user named it: a directory, a bundle, "run 12", "main"
  std::vector<StageSnapshot> stages;  // plan order, config by config
  // How many runs it is: 1, or a pool (run_pool.h) whose figures' samples are per-run
  // medians. A comparison with a pool compares a single run by its medians too.
  std::size_t runs = 1;
};

RunSnapshot snapshot_of(const report::RunReport& report, std::string label);

}  // namespace tipc::gate
