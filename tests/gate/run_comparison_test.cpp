#include "gate/run_comparison.h"

#include <gtest/gtest.h>

namespace tipc::gate {
namespace {
namespace TIPC_TEST_FILE {

report::StageReport stage(const std::string& id, run::Status result, std::map<std::string, double> values = {}) {
  report::StageReport s;
  s.id = id;
  s.kind = plan::StageKind::kEval;
  s.result = result;
  s.metrics.final_values = std::move(values);
  return s;
}

RunSnapshot run_of(std::vector<report::StageReport> stages) {
  report::RunReport run;
  run.plans.push_back(
      {"test_tipc/configs/m/train.txt", "/abs/train.txt", "lite_train_lite_infer", "m", "", "", "", {}});
  run.plans.back().stages = std::move(stages);
  return snapshot_of(run, "run");
}

const StageComparison& find(const RunComparison& c, const std::string& id) {
  for (const auto& s : c.stages) {
    if (s.stage == id) return s;
  }
  throw std::runtime_error("no stage " + id);
}

TEST(RunComparison, ResultChangesAreRegressionsAndFixes) {
  using run::Status;
  const auto base = run_of({stage("a", Status::kPass), stage("b", Status::kFail), stage("c", Status::kPass),
                            stage("gone", Status::kPass), stage("skipped", Status::kPass)});
  const auto current = run_of({stage("a", Status::kFail), stage("b", Status::kFlaky), stage("c", Status::kPass),
                               stage("new", Status::kPass), stage("skipped", Status::kUnsupported)});
  const RunComparison c = compare_runs(base, current, {});
  EXPECT_EQ(find(c, "a").result, Class::kRegressed);
  EXPECT_EQ(find(c, "a").why, "PASS -> FAIL");
  EXPECT_EQ(find(c, "b").result, Class::kImproved);
  EXPECT_EQ(find(c, "c").result, Class::kUnchanged);
  EXPECT_EQ(find(c, "new").result, Class::kNew);
  EXPECT_EQ(find(c, "gone").result, Class::kGone);
  EXPECT_EQ(find(c, "gone").why, "PASS -> not run");
  EXPECT_EQ(find(c, "skipped").result, Class::kGone);  // ran before, could not run now
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.stages.back().stage, "gone");  // the new run's order, then what is gone
}

TEST(RunComparison, FiguresOfStagesThatPassedOnBothSides) {
  using run::Status;
  const auto base = run_of({stage("eval", Status::kPass, {{"top1", 0.90}, {"recall", 0.8}})});
  const auto current = run_of({stage("eval", Status::kPass, {{"top1", 0.80}, {"hmean", 0.7}})});
  const RunComparison c = compare_runs(base, current, {});
  const auto& figures = find(c, "eval").figures;
  ASSERT_EQ(figures.size(), 3u);
  EXPECT_EQ(figures[0].name, "eval:hmean");
  EXPECT_EQ(figures[0].result, Class::kNew);
  EXPECT_EQ(figures[1].name, "eval:top1");
  EXPECT_EQ(figures[1].result, Class::kRegressed);
  EXPECT_NEAR(figures[1].comparison.relative_change, -1.0 / 9, 1e-12);
  EXPECT_EQ(figures[2].name, "eval:recall");
  EXPECT_EQ(figures[2].result, Class::kGone);
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.count(Class::kRegressed), 1u);
}

TEST(RunComparison, RulesSetSeverityDirectionAndWhatIsIgnored) {
  using run::Status;
  const auto base = run_of({stage("eval", Status::kPass, {{"top1", 0.90}, {"weird", 10}})});
  const auto current = run_of({stage("eval", Status::kPass, {{"top1", 0.80}, {"weird", 12}})});
  GateRules rules;
  GateRule top1;
  top1.metric = "eval:top1";
  top1.severity = Severity::kWarn;
  GateRule weird;
  weird.metric = "eval:weird";
  weird.better = stats::Better::kLower;
  weird.source = "tipc-run.yaml:7";
  rules.rules = {top1, weird};
  const RunComparison c = compare_runs(base, current, rules);
  const auto& figures = find(c, "eval").figures;
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].severity, Severity::kWarn);
  EXPECT_EQ(figures[1].result, Class::kRegressed);  // 10 -> 12 with lower better
  EXPECT_EQ(figures[1].rule, "tipc-run.yaml:7");
  EXPECT_TRUE(c.failed());

  rules.rules[1].ignore = true;
  const RunComparison warned = compare_runs(base, current, rules);
  EXPECT_EQ(find(warned, "eval").figures.size(), 1u);
  EXPECT_FALSE(warned.failed());  // a warn regression alone does not fail
  EXPECT_EQ(warned.count(Class::kRegressed), 1u);
}

TEST(RunComparison, AFailedStagesFiguresAreNotCompared) {
  using run::Status;
  const auto base = run_of({stage("eval", Status::kPass, {{"top1", 0.90}})});
  const auto current = run_of({stage("eval", Status::kFail, {{"top1", 0.10}})});
  const RunComparison c = compare_runs(base, current, {});
  EXPECT_TRUE(find(c, "eval").figures.empty());
  EXPECT_EQ(find(c, "eval").result, Class::kRegressed);
}

// Two single runs: one value a side, the thresholds alone decide (as for a benchmark log's memory).
TEST(RunComparison, AGpuMemoryPeakThatGrewIsARegressionAndOneWithinTheNoiseIsNot) {
  using run::Status;
  const auto train = [](double memory_mib, double utilization) {
    report::StageReport s = stage("train", Status::kPass);
    s.gpu.samples = 40;
    s.gpu.memory_peak_mib = memory_mib;
    s.gpu.utilization_mean_percent = utilization;
    return s;
  };
  const auto base = run_of({train(10240, 85)});
  const RunComparison grown = compare_runs(base, run_of({train(12288, 84)}), {});
  const auto& figures = find(grown, "train").figures;
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].name, "gpu:memory_peak_mib");
  EXPECT_EQ(figures[0].result, Class::kRegressed);  // +20 %
  EXPECT_EQ(figures[1].name, "gpu:utilization_mean_percent");
  EXPECT_EQ(figures[1].result, Class::kUnchanged);  // -1.2 %
  EXPECT_TRUE(grown.failed());
  const RunComparison steady = compare_runs(base, run_of({train(10300, 86)}), {});
  EXPECT_EQ(find(steady, "train").figures[0].result, Class::kUnchanged);  // +0.6 %
  EXPECT_FALSE(steady.failed());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::gate
