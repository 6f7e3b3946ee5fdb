#include "report/eval_log.h"

#include <gtest/gtest.h>

#include "report/log_metrics.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(LogMetricsEval, EvalLogsGiveTheLastValueOfEachMetric) {
  const std::string log =
      "loading checkpoint /tmp/x.pt\n"
      "[eval] images: 16, top1: 0.5, loss: 0.9\n"
      "[eval] images: 32, top1: 0.968750, loss: 0.077381\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kEval, log);

  const std::map<std::string, double> expected = {{"images", 32}, {"top1", 0.96875}, {"loss", 0.077381}};
  EXPECT_EQ(metrics.final_values, expected);
  EXPECT_TRUE(metrics.curves.empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
