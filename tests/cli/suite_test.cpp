// Selecting stages with --only and -k (cli/suite): what is kept, and what a kept stage
// remembers of the stages before it that were left out.
#include "cli/suite.h"

#include <gtest/gtest.h>

namespace tipc::cli {
namespace {

plan::Stage stage(const std::string& id, plan::StageKind kind, int gpus, std::vector<std::string> deps = {}) {
  plan::Stage s;
  s.id = id;
  s.kind = kind;
  s.needs.gpus = gpus;
  s.deps = std::move(deps);
  return s;
}

// train (2 GPUs) -> export -> gpu infer (1 GPU) -> its check; export -> cpu infer -> its check.
std::vector<plan::Plan> chain() {
  using K = plan::StageKind;
  plan::Plan p;
  p.stages = {stage("train", K::kTrain, 2),           stage("export", K::kExport, 0, {"train"}),
              stage("gpu", K::kInfer, 1, {"export"}), stage("cpu", K::kInfer, 0, {"export"}),
              stage("gpu/check", K::kCheck, 0, {"gpu"}), stage("cpu/check", K::kCheck, 0, {"cpu"})};
  return {p};
}

std::vector<std::pair<std::string, int>> unselected(const plan::Stage& s) {
  std::vector<std::pair<std::string, int>> deps;
  for (const auto& dep : s.unselected_deps) deps.emplace_back(dep.id, dep.needs.gpus);
  std::sort(deps.begin(), deps.end());
  return deps;
}

TEST(SelectStages, AKeptStageRemembersEveryLeftOutStageBeforeItWithItsNeeds) {
  auto plans = chain();
  ASSERT_TRUE(select_stages(plans, {"check"}, ""));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_TRUE(stages[0].deps.empty());
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"gpu", 1}, {"train", 2}}));
  EXPECT_EQ(unselected(stages[1]), (std::vector<std::pair<std::string, int>>{{"cpu", 0}, {"export", 0}, {"train", 2}}));
}

TEST(SelectStages, TheWalkStopsAtAKeptStage) {
  auto plans = chain();
  ASSERT_TRUE(select_stages(plans, {"infer", "check"}, ""));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"train", 2}}));
  EXPECT_TRUE(stages[2].unselected_deps.empty()) << "its producer was kept: a dependency as usual";
  EXPECT_EQ(stages[2].deps, std::vector<std::string>{"gpu"});
}

TEST(SelectStages, ASelectionOfNothingIsAnErrorNamingIt) {
  auto plans = chain();
  const auto result = select_stages(plans, {}, "nope*");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("-k 'nope*' selects none of the 6 planned stages"), std::string::npos)
      << result.error().str();
}

}  // namespace
}  // namespace tipc::cli
