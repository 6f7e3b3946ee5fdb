#include "run/priority.h"

#include <gtest/gtest.h>

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

using plan::StageKind;

StageCost cost(const std::string& key, StageKind kind, int gpus = 0, std::vector<std::size_t> deps = {}) {
  return {kind, gpus, std::move(deps), key};
}

std::vector<std::size_t> order_of(const std::vector<StageCost>& stages, const std::vector<double>& seconds) {
  std::vector<Estimate> estimates;
  for (const double s : seconds) estimates.push_back({s, EstimateSource::kRecorded});
  return critical_path_order(stages, estimates).order;
}

TEST(CriticalPathOrder, TheStageWithTheLongestChainAheadGoesFirst) {
  // a (1 s) leads to c (10 s): 11 s ahead of a, against b's own 5 s.
  const std::vector<StageCost> stages = {cost("a", StageKind::kTrain), cost("b", StageKind::kTrain),
                                         cost("c", StageKind::kEval, 0, {0})};
  EXPECT_EQ(order_of(stages, {1, 5, 10}), (std::vector<std::size_t>{0, 2, 1}));
  EXPECT_EQ(order_of(stages, {1, 12, 10}), (std::vector<std::size_t>{1, 0, 2}));
}

TEST(CriticalPathOrder, OnlyTheLongestChainOfDependentsCountsNotTheirSum) {
  // a leads to b (5 s) and c (7 s): 2 + 7 = 9 ahead of a, less than d's 10.
  const std::vector<StageCost> stages = {cost("a", StageKind::kTrain), cost("b", StageKind::kEval, 0, {0}),
                                         cost("c", StageKind::kExport, 0, {0}), cost("d", StageKind::kTrain)};
  EXPECT_EQ(order_of(stages, {2, 5, 7, 10}), (std::vector<std::size_t>{3, 0, 2, 1}));
}

TEST(CriticalPathOrder, TiesGoToMoreGpusThenToPlanOrder) {
  const std::vector<StageCost> stages = {cost("a", StageKind::kTrain, 1), cost("b", StageKind::kTrain, 4),
                                         cost("c", StageKind::kTrain, 1), cost("d", StageKind::kTrain, 2)};
  EXPECT_EQ(order_of(stages, {3, 3, 3, 3}), (std::vector<std::size_t>{1, 3, 0, 2}));
}

TEST(CriticalPathOrder, EachStageCarriesItsTimeAhead) {
  const std::vector<StageCost> stages = {cost("a", StageKind::kTrain), cost("b", StageKind::kEval, 0, {0}),
                                         cost("c", StageKind::kExport, 0, {0})};
  const auto start = critical_path_order(
      stages, {{2, EstimateSource::kRecorded}, {5, EstimateSource::kRecorded}, {7, EstimateSource::kMeanOfKind}});
  EXPECT_EQ(start.ahead, (std::vector<double>{9, 5, 7}));
}

TEST(EstimateSeconds, HistoryFirstThenTheMeanOfItsKindThenTheKindsDefault) {
  const std::vector<StageCost> stages = {cost("c#train", StageKind::kTrain), cost("d#train", StageKind::kTrain),
                                         cost("e#train", StageKind::kTrain), cost("c#eval", StageKind::kEval),
                                         cost("c#infer", StageKind::kInfer)};
  const auto estimates = estimate_seconds(stages, {{"c#train", 10}, {"d#train", 20}, {"other#eval", 99}});
  ASSERT_EQ(estimates.size(), 5u);
  EXPECT_EQ(estimates[0].seconds, 10);
  EXPECT_EQ(estimates[0].source, EstimateSource::kRecorded);
  EXPECT_EQ(estimates[1].seconds, 20);
  EXPECT_EQ(estimates[2].seconds, 15) << "no time of its own: the mean of this run's trains that have one";
  EXPECT_EQ(estimates[2].source, EstimateSource::kMeanOfKind);
  EXPECT_EQ(estimates[3].source, EstimateSource::kDefaultOfKind);
  EXPECT_GT(estimates[3].seconds, estimates[4].seconds)
      << "no eval has a time: defaults, where an eval outlasts an inference";
  EXPECT_GT(estimate_seconds(stages, {})[0].seconds, estimates[3].seconds) << "and a train outlasts an eval";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
