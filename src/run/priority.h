#pragma once
// In which order the scheduler offers free GPUs to ready stages. Critical path first,
// as ninja does with its .ninja_log: the stage with the most estimated time still ahead
// of it (its own plus that of its longest chain of dependents) goes first, so that long
// trains and the stages waiting on them do not end up alone at the tail of a suite.
// Estimates are the stages' times in earlier runs where there are some.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace tipc::run {

// What the order needs to know of one stage; deps are indices of earlier stages.
struct StageCost {
  plan::StageKind kind = plan::StageKind::kTrain;
  int gpus = 0;
  std::vector<std::size_t> deps;
  std::string key;  // stage_key(): where its time in an earlier run is looked up
};

enum class EstimateSource { kRecorded, kMeanOfKind, kDefaultOfKind };
const char* to_string(EstimateSource source);  // "its last run", "mean of its kind", "default of its kind"

struct Estimate {
  double seconds = 0;
  EstimateSource source = EstimateSource::kDefaultOfKind;
};

// Per stage: its time in `history` (stage key -> seconds), else the mean time in
// `history` of this run's stages of its kind, else a default for its kind (a train
// outlasts an inference). Only the ratios between estimates matter.
std::vector<Estimate> estimate_seconds(const std::vector<StageCost>& stages,
                                       const std::map<std::string, double>& history);

struct StartOrder {
  std::vector<std::size_t> order;  // stage indices, first offered first
  std::vector<double> ahead;       // per stage: its estimate plus its longest chain of dependents'
};

// Most estimated time ahead first; ties go to the stage that needs more GPUs (it is the
// harder one to place later), then to plan order.
StartOrder critical_path_order(const std::vector<StageCost>& stages, const std::vector<Estimate>& estimates);

}  // namespace tipc::run
