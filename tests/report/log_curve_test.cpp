#include "report/log_curve.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "report/log_metrics.h"
#include "support/log_samples.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::xs_of;

TEST(LogMetricsCurve, LongCurvesAreThinnedEvenlyKeepingTheFirstAndLastPoint) {
  std::string log;
  const int kIterations = 100001;
  for (int i = 1; i <= kIterations; ++i) log += fmt::format("global_step: {}, loss: {}\n", i, 2 * i);
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  ASSERT_EQ(metrics.curves.size(), 1u);
  const auto& points = metrics.curves[0].points;
  ASSERT_EQ(points.size(), 2000u);
  EXPECT_EQ(points.front().step, 1);
  EXPECT_EQ(points.back().step, kIterations);
  EXPECT_EQ(points.back().value, 2 * kIterations);
  double largest_gap = 0, smallest_gap = kIterations;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double gap = points[i].step - points[i - 1].step;
    largest_gap = std::max(largest_gap, gap);
    smallest_gap = std::min(smallest_gap, gap);
  }
  EXPECT_GT(smallest_gap, 0);
  EXPECT_LE(largest_gap, 4 * smallest_gap);  // evenly spread, not bunched at one end
}

TEST(LogMetricsCurve, ShortCurvesKeepEveryPoint) {
  MetricsLimits limits;
  limits.max_points_per_curve = 5;
  StageMetricsParser parser(StageKind::kTrain, limits);
  for (int i = 1; i <= 5; ++i) parser.feed(fmt::format("global_step: {}, loss: {}\n", i, i));
  EXPECT_EQ(xs_of(parser.finish().curves.at(0)), (std::vector<double>{1, 2, 3, 4, 5}));
}

TEST(LogMetricsCurve, CurveNamesSplitIntoMetricAndRank) {
  EXPECT_EQ(curve_name("loss", 1), "loss (rank 1)");
  EXPECT_EQ(curve_name("loss", std::nullopt), "loss");
  const CurveNameParts ranked = split_curve_name("CELoss (rank 12)");
  EXPECT_EQ(ranked.metric, "CELoss");
  EXPECT_EQ(ranked.rank, 12);
  const CurveNameParts plain = split_curve_name("acc (rank x)");
  EXPECT_EQ(plain.metric, "acc (rank x)");
  EXPECT_FALSE(plain.rank);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
