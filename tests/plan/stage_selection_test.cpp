// Which stages a run keeps (plan/stage_selection): --only, -k expressions over hierarchical
// stage ids (no word selects every stage through the prefix they share), and --shard K/N.
#include "plan/stage_selection.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
using K = plan::StageKind;

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
  p.stages = {stage("train", K::kTrain, 2),
              stage("export", K::kExport, 0, {"train"}),
              stage("gpu", K::kInfer, 1, {"export"}),
              stage("cpu", K::kInfer, 0, {"export"}),
              stage("gpu/check", K::kCheck, 0, {"gpu"}),
              stage("cpu/check", K::kCheck, 0, {"cpu"})};
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
  ASSERT_TRUE(select_stages(plans, {StageKind::kCheck}, {}));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_TRUE(stages[0].deps.empty());
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"gpu", 1}, {"train", 2}}));
  EXPECT_EQ(unselected(stages[1]), (std::vector<std::pair<std::string, int>>{{"cpu", 0}, {"export", 0}, {"train", 2}}));
}

TEST(SelectStages, TheWalkStopsAtAKeptStage) {
  auto plans = chain();
  ASSERT_TRUE(select_stages(plans, {StageKind::kInfer, StageKind::kCheck}, {}));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"train", 2}}));
  EXPECT_TRUE(stages[2].unselected_deps.empty()) << "its producer was kept: a dependency as usual";
  EXPECT_EQ(stages[2].deps, std::vector<std::string>{"gpu"});
}

TEST(SelectStages, ASelectionOfNothingIsAnErrorNamingIt) {
  auto plans = chain();
  const auto result = select_stages(plans, {}, {"nope*"});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("-k 'nope*' selects none of the 6 planned stages"), std::string::npos)
      << result.error().str();
}

// The ids of the demo (alexnet, lite_train_lite_infer): every one starts with norm_train/.
std::vector<plan::Plan> demo() {
  const std::string p = "norm_train/gpus_0/";
  plan::Plan plan;
  plan.stages = {stage(p + "train", K::kTrain, 0),
                 stage(p + "train/check/init", K::kCheck, 0, {p + "train"}),
                 stage(p + "eval", K::kEval, 0, {p + "train"}),
                 stage(p + "export", K::kExport, 0, {p + "train"}),
                 stage(p + "infer/cpu_mkldnn_False_threads_2_fp32_bs1", K::kInfer, 0, {p + "export"}),
                 stage(p + "infer/cpu_mkldnn_False_threads_6_fp32_bs4", K::kInfer, 0, {p + "export"}),
                 stage(p + "infer/gpu_trt_False_fp32_bs1", K::kInfer, 1, {p + "export"})};
  return {plan};
}

// The kept ids without the shared prefix.
std::vector<std::string> kept(const std::vector<std::string>& expressions) {
  auto plans = demo();
  if (!select_stages(plans, {}, expressions)) return {"(nothing)"};
  std::vector<std::string> ids;
  for (const auto& s : plans[0].stages) ids.push_back(s.id.substr(std::string("norm_train/gpus_0/").size()));
  return ids;
}

using Ids = std::vector<std::string>;

TEST(StageExpression, AWordIsAKindOrAWholeSegmentNotAPrefixEveryStageShares) {
  EXPECT_EQ(kept({"train"}), (Ids{"train", "train/check/init"}));
  EXPECT_EQ(kept({"norm_train"}).size(), 7u);   // the shared segment, whole: everything
  EXPECT_EQ(kept({"rain"}), Ids{"(nothing)"});  // no substrings
  EXPECT_EQ(kept({"check"}), Ids{"train/check/init"});
  EXPECT_EQ(kept({"gpus_0/train"}), (Ids{"train", "train/check/init"}));
}

TEST(StageExpression, AWordMatchesWhole_WordsOfALaterSegmentCaseInsensitively) {
  EXPECT_EQ(kept({"bs1"}), (Ids{"infer/cpu_mkldnn_False_threads_2_fp32_bs1", "infer/gpu_trt_False_fp32_bs1"}));
  EXPECT_EQ(kept({"threads_2"}), Ids{"infer/cpu_mkldnn_False_threads_2_fp32_bs1"});
  EXPECT_EQ(kept({"mkldnn_false"}).size(), 2u);
  EXPECT_EQ(kept({"threads"}).size(), 2u);
  EXPECT_EQ(kept({"bs"}), Ids{"(nothing)"});
}

TEST(StageExpression, AGlobMatchesTheWholeId) {
  EXPECT_EQ(kept({"*/infer/gpu_*"}), Ids{"infer/gpu_trt_False_fp32_bs1"});
  EXPECT_EQ(kept({"infer/*"}), Ids{"(nothing)"});  // the id starts with norm_train/
}

TEST(StageExpression, NotAndOrAndParenthesesAsInPytest) {
  EXPECT_EQ(kept({"infer and not bs1"}), Ids{"infer/cpu_mkldnn_False_threads_6_fp32_bs4"});
  EXPECT_EQ(kept({"not infer"}), (Ids{"train", "train/check/init", "eval", "export"}));
  EXPECT_EQ(kept({"eval or export"}), (Ids{"eval", "export"}));
  EXPECT_EQ(kept({"infer and not (bs4 or trt_false)"}), Ids{"infer/cpu_mkldnn_False_threads_2_fp32_bs1"});
  EXPECT_EQ(kept({"not not eval"}), Ids{"eval"});
}

TEST(StageExpression, SeveralKSelectWhatAnyOfThemSelects) {
  EXPECT_EQ(kept({"eval", "export"}), (Ids{"eval", "export"}));
  EXPECT_EQ(kept({"bs4", "not infer"}),
            (Ids{"train", "train/check/init", "eval", "export", "infer/cpu_mkldnn_False_threads_6_fp32_bs4"}));
}

TEST(StageExpression, AnExpressionThatDoesNotParseSaysWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "it is empty"},
      {"infer and", "a pattern is missing after 'and'"},
      {"not", "a pattern is missing after 'not'"},
      {"and bs1", "a pattern is missing before 'and'"},
      {"(infer or eval", "a ')' is missing"},
      {"infer bs1", "'bs1' follows a complete expression"},
  };
  for (const auto& [text, problem] : cases) {
    const auto parsed = StageExpression::parse(text);
    ASSERT_FALSE(parsed) << text;
    EXPECT_EQ(parsed.error().str(), fmt::format("'{}': {} (patterns joined by and, or, not; e.g. -k 'infer and "
                                                "not bs1')",
                                                text, problem));
  }
}

TEST(Shard, KOfNParsesAndAnythingElseIsAPlainWordError) {
  const auto shard = parse_shard("2/4");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 2);
  EXPECT_EQ(shard->count, 4);
  for (const char* bad : {"0/4", "5/4", "2", "2/", "/4", "a/b", "2/4x", "-1/4", ""}) {
    const auto parsed = parse_shard(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().str(), fmt::format("'{}' is not a shard: write K/N, the Kth of N shards, with 1 <= K <= N "
                                                "(e.g. --shard 2/4)",
                                                bad));
  }
}

// Five configs of 3, 1, 4, 1 and 5 stages.
std::vector<plan::Plan> suite() {
  std::vector<plan::Plan> plans;
  for (const int stages : {3, 1, 4, 1, 5}) {
    plan::Plan plan;
    plan.config_path = "c" + std::to_string(plans.size()) + ".txt";
    for (int i = 0; i < stages; ++i) plan.stages.push_back(stage(fmt::format("s{}", i), K::kTrain, 0));
    plans.push_back(plan);
  }
  return plans;
}

std::set<std::string> stage_keys(const std::vector<plan::Plan>& plans, const std::vector<std::size_t>& configs) {
  std::set<std::string> keys;
  for (const std::size_t c : configs) {
    for (const auto& s : plans[c].stages) keys.insert(plans[c].config_path + "#" + s.id);
  }
  return keys;
}

TEST(Shard, TheShardsAreDisjointWholeConfigsWhoseUnionIsThePlan) {
  const auto plans = suite();
  const std::set<std::string> all = stage_keys(plans, {0, 1, 2, 3, 4});
  for (const int n : {1, 2, 3, 5, 7}) {
    std::set<std::string> seen;
    std::size_t total = 0;
    for (int k = 1; k <= n; ++k) {
      const auto configs = configs_of_shard(plans, {k, n});
      EXPECT_EQ(configs, configs_of_shard(plans, {k, n})) << "deterministic";
      const auto keys = stage_keys(plans, configs);
      total += keys.size();
      seen.insert(keys.begin(), keys.end());
    }
    EXPECT_EQ(seen, all) << n << " shards";
    EXPECT_EQ(total, all.size()) << n << " shards: disjoint";
  }
}

TEST(Shard, BiggestConfigsFirstOntoTheLightestShardAndMoreShardsThanConfigsLeaveSomeEmpty) {
  const auto plans = suite();
  EXPECT_EQ(configs_of_shard(plans, {1, 2}), (std::vector<std::size_t>{1, 3, 4}));  // 5, then 1 + 1: 7 stages
  EXPECT_EQ(configs_of_shard(plans, {2, 2}), (std::vector<std::size_t>{0, 2}));     // 4, then 3: 7 stages
  EXPECT_TRUE(configs_of_shard(plans, {6, 7}).empty());
  EXPECT_TRUE(configs_of_shard(plans, {7, 7}).empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
