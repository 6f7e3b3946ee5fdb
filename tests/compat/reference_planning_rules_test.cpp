#include "compat/reference_planning_rules.h"

#include <gtest/gtest.h>

#include "plan/native_rules.h"

namespace tipc::compat {
namespace {
namespace TIPC_TEST_FILE {

TEST(PlanningRulesSelection, CompatPicksTheReferencesRulesAndOnlyIt) {
  EXPECT_EQ(&planning_rules(true), &reference_planning_rules());
  EXPECT_EQ(&planning_rules(false), &plan::native_planning_rules());
  EXPECT_TRUE(planning_rules(true).reproduces_reference());
  EXPECT_FALSE(planning_rules(false).reproduces_reference());
}

// The runner exports CUDA_VISIBLE_DEVICES once and later commands inherit it; tipc-run
// gives each stage its own GPUs.
TEST(ReferencePlanningRules, AStageInheritsTheRunnersDevicesWhereTipcRunGivesItsOwn) {
  const std::optional<std::string> runner = "0,1", own = "1";
  EXPECT_EQ(reference_planning_rules().visible_devices(runner, own), runner);
  EXPECT_EQ(plan::native_planning_rules().visible_devices(runner, own), own);
}

// Det's whole-inference modes: the runner counts the modes it processed (D15 in docs/reference-runner.md).
TEST(ReferencePlanningRules, QuantFlagsAreIndexedByProcessedModes) {
  EXPECT_EQ(reference_planning_rules().quant_index(1, 3), 1u);
  EXPECT_EQ(plan::native_planning_rules().quant_index(1, 3), 3u);
}

TEST(ReferencePlanningRules, PathsStayAsTheRunnerConcatenatedThem) {
  EXPECT_EQ(reference_planning_rules().planned_path("out//model/"), "out//model/");
  EXPECT_EQ(plan::native_planning_rules().planned_path("out//model/"), "out/model");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::compat
