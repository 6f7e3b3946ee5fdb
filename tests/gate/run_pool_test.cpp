#include "gate/run_pool.h"

#include <gtest/gtest.h>

#include "gate/run_comparison.h"

namespace tipc::gate {
namespace {
namespace TIPC_TEST_FILE {

// One run of a train whose ips steps are `ips` (tight within the run, as on a quiet core).
RunSnapshot train_run(const std::vector<double>& ips, run::Status result = run::Status::kPass) {
  StageSnapshot train{"c.txt", "benchmark_train", "train", plan::StageKind::kTrain, result, 1.0, {}};
  train.figures.push_back({"ips", "samples/s", stats::Better::kHigher, ips, true});
  return {"run", {train}};
}

std::vector<double> steps_around(double median) { return {median - 2, median - 1, median, median + 1, median + 2}; }

const FigureComparison& ips_of(const RunComparison& c) { return c.stages.at(0).figures.at(0); }

TEST(RunPool, EachFigureBecomesTheMediansOfTheRunsWhereItsStagePassed) {
  const RunSnapshot pool = pool_runs({train_run(steps_around(100)), train_run(steps_around(50), run::Status::kFail),
                                      train_run(steps_around(90)), train_run(steps_around(95))},
                                     "main");
  EXPECT_EQ(pool.label, "main");
  EXPECT_EQ(pool.runs, 4u);
  ASSERT_EQ(pool.stages.size(), 1u);
  EXPECT_EQ(pool.stages[0].result, run::Status::kPass);  // the newest run's
  ASSERT_EQ(pool.stages[0].figures.size(), 1u);
  EXPECT_EQ(pool.stages[0].figures[0].samples, (std::vector<double>{100, 90, 95}));  // oldest first; not the failed run
}

// Two runs of the same code land at 100 and 90 samples/s; their steps do not overlap, so a
// test over steps calls the second a regression. Over runs, interleaved pools of the same
// code are one distribution, and a real 20 % slowdown still stands out.
TEST(RunPool, RunsNotStepsAreTheSamplesOfAPool) {
  const RunComparison steps = compare_runs(train_run(steps_around(100)), train_run(steps_around(90)), {});
  EXPECT_EQ(ips_of(steps).result, Class::kRegressed);  // p = 0.008 over 5 + 5 steps: the false alarm

  const auto pool_of = [](const std::vector<double>& medians) {
    std::vector<RunSnapshot> runs;
    for (const double median : medians) runs.push_back(train_run(steps_around(median)));
    return pool_runs(runs, "pool");
  };
  const RunComparison same = compare_runs(pool_of({100, 92, 97, 105, 94}), pool_of({90, 101, 96, 99, 93}), {});
  EXPECT_EQ(ips_of(same).result, Class::kUnchanged) << ips_of(same).comparison.why;
  EXPECT_EQ(ips_of(same).base_samples, 5u);

  const RunComparison slowed = compare_runs(pool_of({100, 92, 97, 105, 94}), pool_of({78, 80, 76, 83, 75}), {});
  EXPECT_EQ(ips_of(slowed).result, Class::kRegressed);
  ASSERT_TRUE(ips_of(slowed).comparison.p_value);
  EXPECT_LT(*ips_of(slowed).comparison.p_value, 0.05);
}

// A single run against a pool is one sample, its median: its steps are no runs, and with one
// sample a side short of the test's minimum, the thresholds alone decide.
TEST(RunPool, ASingleRunAgainstAPoolIsItsMedian) {
  std::vector<RunSnapshot> runs;
  for (const double median : {100.0, 92.0, 97.0, 105.0, 94.0}) runs.push_back(train_run(steps_around(median)));
  const RunComparison c = compare_runs(pool_runs(runs, "main"), train_run(steps_around(80)), {});
  EXPECT_EQ(ips_of(c).current_samples, 1u);
  EXPECT_FALSE(ips_of(c).comparison.p_value);
  EXPECT_EQ(ips_of(c).result, Class::kRegressed);  // 97 -> 80: -17.5 %, over the 5 % threshold
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::gate
