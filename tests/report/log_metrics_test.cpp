#include "report/log_metrics.h"

#include <gtest/gtest.h>

#include "support/log_samples.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::demo_train_line;
using test::kDemoAutoLog;
using test::values_of;
using test::xs_of;

TEST(LogMetrics, OtherStageKindsHaveNoMetrics) {
  const StageMetrics metrics = parse_stage_metrics(StageKind::kExport, demo_train_line(0, 1, 1, 1.0));
  EXPECT_TRUE(metrics.curves.empty());
  EXPECT_TRUE(metrics.final_values.empty());
  EXPECT_FALSE(metrics.timings);
}

TEST(LogMetrics, ChunkBoundariesDoNotChangeTheResult) {
  std::string log;
  for (int iter = 1; iter <= 3; ++iter) log += demo_train_line(iter % 2, 1, iter, iter);
  const StageMetrics whole = parse_stage_metrics(StageKind::kTrain, log);
  for (std::size_t split = 0; split <= log.size(); ++split) {
    StageMetricsParser parser(StageKind::kTrain);
    parser.feed(std::string_view(log).substr(0, split));
    parser.feed(std::string_view(log).substr(split));
    const StageMetrics chunked = parser.finish();
    ASSERT_EQ(chunked.curves.size(), whole.curves.size()) << split;
    for (std::size_t i = 0; i < whole.curves.size(); ++i) {
      EXPECT_EQ(xs_of(chunked.curves[i]), xs_of(whole.curves[i])) << split;
      EXPECT_EQ(values_of(chunked.curves[i]), values_of(whole.curves[i])) << split;
    }
  }
}

TEST(LogMetrics, FilesAreStreamedAndAMissingLogHasNoMetrics) {
  test::TempDir dir;
  const std::string path = dir.write("infer.log", kDemoAutoLog);
  EXPECT_EQ(parse_stage_metrics_file(StageKind::kInfer, path).timings->inference_ms, 266.1366);
  EXPECT_FALSE(parse_stage_metrics_file(StageKind::kInfer, (dir.path() / "missing.log").string()).timings);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
