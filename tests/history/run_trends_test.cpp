#include "history/run_trends.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "support/sample_report.h"
#include "support/temp_dir.h"

namespace tipc::history {
namespace {
namespace TIPC_TEST_FILE {

// The sample run (a passing train with ips, batch cost and memory) whose last logged ips is `ips`.
report::RunReport run_with_ips(double ips, const std::string& commit, run::Status train = run::Status::kPass) {
  report::RunReport run = test::sample_run_report();
  run.environment->repository->commit = commit;
  run.plans[0].stages[0].metrics.benchmark->ips_curves[0].points.back().value = ips;
  run.plans[0].stages[0].result = train;
  return run;
}

class RunTrends : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(history_) << history_.error().str();
    int n = 0;
    for (const double ips : {120.0, 121.0, 96.0, 97.0}) {  // run 3: -20.66 %
      ASSERT_TRUE(history_->record(run_with_ips(ips, "c0mmit" + std::to_string(++n) + "abcdef"), "/out"));
    }
  }
  report::HistoryTrends trends(const TrendRequest& request, const gate::GateRules& rules = {}) {
    auto loaded = load_trends(*history_, rules, request);
    EXPECT_TRUE(loaded) << loaded.error().str();
    return loaded ? *loaded : report::HistoryTrends{};
  }
  static const report::TrendChart* chart(const report::HistoryTrends& trends, const std::string& metric) {
    const auto found = std::find_if(trends.charts.begin(), trends.charts.end(),
                                    [&](const report::TrendChart& c) { return c.metric == metric; });
    return found == trends.charts.end() ? nullptr : &*found;
  }
  static std::vector<double> values(const report::TrendChart& chart) {
    std::vector<double> out;
    for (const auto& point : chart.points) out.push_back(point.value);
    return out;
  }
  test::TempDir dir_;
  Result<RunHistory> history_ = RunHistory::open((dir_.path() / "h.sqlite").string());
};

TEST_F(RunTrends, EachGatedFigureOfAPassedStageIsOneChartOverTheRuns) {
  const auto all = trends({});
  std::vector<std::string> metrics;
  for (const auto& c : all.charts) metrics.push_back(c.stage + " " + c.metric);
  // Not train:top1 (a train log's value), the step costs (ips carries the same steps, with
  // samples) nor the check values: recorded, not gated.
  EXPECT_EQ(metrics,
            (std::vector<std::string>{"norm_train/gpus_-1/train ips", "norm_train/gpus_-1/train max_mem_reserved_mb"}));
  const auto* ips = chart(all, "ips");
  ASSERT_TRUE(ips);
  EXPECT_EQ(values(*ips), (std::vector<double>{120, 121, 96, 97}));
  EXPECT_EQ(ips->unit, "samples/s");
  EXPECT_TRUE(ips->higher_is_better);
  EXPECT_FALSE(chart(all, "batch_cost_s"));
  ASSERT_TRUE(chart(all, "max_mem_reserved_mb"));
  EXPECT_FALSE(chart(all, "max_mem_reserved_mb")->higher_is_better);
  EXPECT_EQ(ips->points[0].commit, "c0mmit1abcdef");
  EXPECT_EQ(ips->points[0].branch, "main");
  EXPECT_EQ(all.history, history_->path());
}

TEST_F(RunTrends, APointIsJudgedByTheGateAgainstThePointBeforeIt) {
  const auto all = trends({});
  const auto* ips = chart(all, "ips");
  ASSERT_TRUE(ips);
  std::vector<bool> regressed;
  for (const auto& point : ips->points) regressed.push_back(point.regressed);
  EXPECT_EQ(regressed, (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(ips->points[0].comparison, "");
  EXPECT_EQ(ips->points[2].comparison, "REGRESSED: 121 samples/s -> 96 samples/s, -20.66% against run 2");
  EXPECT_EQ(ips->points[3].comparison, "UNCHANGED: 96 samples/s -> 97 samples/s, +1.04% against run 3");
}

TEST_F(RunTrends, TheOldestShownPointIsComparedWithTheRunBeforeItAndLaterRunsAreLeftOut) {
  TrendRequest request;
  request.points = 2;
  request.current_run = 3;
  const auto shown = trends(request);
  const auto* ips = chart(shown, "ips");
  ASSERT_TRUE(ips);
  EXPECT_EQ(values(*ips), (std::vector<double>{121, 96}));
  EXPECT_TRUE(ips->points[1].regressed);
  EXPECT_TRUE(ips->points[1].current);
  EXPECT_FALSE(ips->points[0].current);
  EXPECT_NE(ips->points[0].comparison.find("against run 1"), std::string::npos) << ips->points[0].comparison;
}

TEST_F(RunTrends, TheCurrentRunIsComparedWithItsBaselineWhichIsMarked) {
  const auto baseline = history_->snapshot(1);
  ASSERT_TRUE(baseline);
  TrendRequest request;
  request.current_run = 4;
  request.baseline_run = 1;
  request.baseline = &*baseline;
  const auto shown = trends(request);
  const auto* ips = chart(shown, "ips");
  ASSERT_TRUE(ips);
  EXPECT_TRUE(ips->points[0].baseline);
  EXPECT_EQ(std::count_if(ips->points.begin(), ips->points.end(), [](const auto& p) { return p.baseline; }), 1);
  EXPECT_TRUE(ips->points[3].regressed);  // 97 against the baseline's 120, not against run 3's 96
  EXPECT_EQ(ips->points[3].comparison, "REGRESSED: 120 samples/s -> 97 samples/s, -19.17% against the baseline, run 1");
}

TEST_F(RunTrends, GateRulesDecideWhichFiguresAreChartedAndHowTheyAreJudged) {
  gate::GateRules rules;
  rules.rules.push_back({"ips", "*", std::nullopt, {}, gate::Severity::kWarn, false, "tipc-run.yaml:3"});
  rules.rules.push_back({"batch_cost_s", "*", std::nullopt, {}, gate::Severity::kFail, true, "tipc-run.yaml:5"});
  rules.rules.push_back({"train:*", "*", std::nullopt, {}, gate::Severity::kFail, false, "tipc-run.yaml:6"});
  const auto ruled = trends({}, rules);
  EXPECT_FALSE(chart(ruled, "batch_cost_s"));  // ignore: true
  EXPECT_TRUE(chart(ruled, "train:top1"));     // named by a rule
  const auto* ips = chart(ruled, "ips");
  ASSERT_TRUE(ips);
  EXPECT_TRUE(ips->points[2].regressed);
  EXPECT_TRUE(ips->points[2].comparison.starts_with("REGRESSED (warn): ")) << ips->points[2].comparison;
}

TEST_F(RunTrends, AStageThatDidNotPassHasNoPoint) {
  ASSERT_TRUE(history_->record(run_with_ips(50, "failed0001", run::Status::kFail), "/out"));
  ASSERT_TRUE(history_->record(run_with_ips(98, "after00001"), "/out"));
  const auto all = trends({});
  const auto* ips = chart(all, "ips");
  ASSERT_TRUE(ips);
  EXPECT_EQ(values(*ips), (std::vector<double>{120, 121, 96, 97, 98}));
  EXPECT_NE(ips->points.back().comparison.find("against run 4"), std::string::npos);
}

TEST_F(RunTrends, AtMostTheChartsAskedForThoseWithARegressionFirst) {
  TrendRequest request;
  request.max_charts = 1;
  ASSERT_TRUE(history_->record(run_with_ips(97, "c0mmit5"), "/out"));
  auto memory = run_with_ips(97, "c0mmit6");
  memory.plans[0].stages[0].metrics.benchmark->max_mem_reserved_mb = 8192;  // 2048 before: 4 times the memory
  ASSERT_TRUE(history_->record(memory, "/out"));
  request.points = 2;  // ips's regression (run 3) is out of sight
  const auto one = trends(request);
  ASSERT_EQ(one.charts.size(), 1u);
  EXPECT_EQ(one.charts[0].metric, "max_mem_reserved_mb");
  EXPECT_EQ(one.charts_left_out, 1u);
}

TEST_F(RunTrends, OnlyTheStagesAskedFor) {
  TrendRequest request;
  request.stages = std::set<TrendStageKey>{{"test_tipc/configs/other.txt", "whole_infer", "infer/cpu"}};
  EXPECT_TRUE(trends(request).charts.empty());  // it has no figures
}

// The driver's figures reach the history as the train's: a chart of its peak memory, the jump marked.
TEST_F(RunTrends, TheGpuMemoryPeakIsChartedAndItsJumpMarkedPowerIsNot) {
  for (const double memory : {8192.0, 8200.0, 12288.0}) {
    report::RunReport run = run_with_ips(97, "gpu0001");
    run.plans[0].stages[0].gpu.samples = 10;
    run.plans[0].stages[0].gpu.memory_peak_mib = memory;
    run.plans[0].stages[0].gpu.power_mean_watts = 250;
    ASSERT_TRUE(history_->record(run, "/out"));
  }
  const auto all = trends({});
  const auto* memory = chart(all, "gpu:memory_peak_mib");
  ASSERT_TRUE(memory);
  EXPECT_EQ(values(*memory), (std::vector<double>{8192, 8200, 12288}));
  EXPECT_EQ(memory->unit, "MiB");
  EXPECT_FALSE(memory->higher_is_better);
  EXPECT_FALSE(memory->points[1].regressed);
  EXPECT_TRUE(memory->points[2].regressed) << memory->points[2].comparison;
  EXPECT_FALSE(chart(all, "gpu:power_mean_watts"));  // recorded, not gated
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::history
