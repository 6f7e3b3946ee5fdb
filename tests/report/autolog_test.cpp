#include "report/autolog.h"

#include <gtest/gtest.h>

#include "report/log_metrics.h"
#include "support/log_samples.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::kDemoAutoLog;

TEST(LogMetricsAutoLog, AutoLogSummaryGivesTheInferenceTimings) {
  const StageMetrics metrics = parse_stage_metrics(StageKind::kInfer, kDemoAutoLog);

  ASSERT_TRUE(metrics.timings);
  const InferenceTimings& t = *metrics.timings;
  EXPECT_EQ(t.preprocess_ms, 47.2865);
  EXPECT_EQ(t.inference_ms, 266.1366);
  EXPECT_EQ(t.postprocess_ms, 0.061);
  EXPECT_DOUBLE_EQ(*t.total_ms, 313.5);
  EXPECT_EQ(t.batch_size, 2);
  EXPECT_EQ(t.precision, "fp32");
  EXPECT_EQ(t.device, "cpu");
  EXPECT_EQ(t.cpu_threads, 6);
  EXPECT_TRUE(metrics.curves.empty());
}

TEST(LogMetricsAutoLog, AutoLogKeyLinesMayCarryAnIdentifierAndTheCppVariantLogsMilliseconds) {
  const std::string log =
      "I0501 12:00:00.000 autolog.h:50] [det] use_gpu: 1\n"
      "I0501 12:00:00.000 autolog.h:51] [det] cpu_math_library_num_threads: None\n"
      "I0501 12:00:00.000 autolog.h:52] [det] precision: fp16\n"
      "I0501 12:00:00.000 autolog.h:60] [det] Total time spent(ms): 1234\n"
      "I0501 12:00:00.000 autolog.h:61] [det] preprocess_time(ms): 1.5, inference_time(ms): 7.25, "
      "postprocess_time(ms): 0.5\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kInfer, log);

  ASSERT_TRUE(metrics.timings);
  EXPECT_EQ(metrics.timings->inference_ms, 7.25);
  EXPECT_EQ(metrics.timings->total_ms, 1234);
  EXPECT_EQ(metrics.timings->device, "gpu");
  EXPECT_EQ(metrics.timings->precision, "fp16");
  EXPECT_FALSE(metrics.timings->cpu_threads);
}

TEST(LogMetricsAutoLog, InferLogsWithoutAutoLogHaveNoTimings) {
  const StageMetrics metrics = parse_stage_metrics(
      StageKind::kInfer, "infer result (circle): /data/val/circle/000.ppm\t[0, 0.998800]\nbatch_size: 4\n");
  EXPECT_FALSE(metrics.timings);
}

TEST(LogMetricsAutoLog, AutoLogPerfInfoGivesMemoryAndGpuUtilisation) {
  const InferenceTimings cpu = *parse_stage_metrics(StageKind::kInfer, kDemoAutoLog).timings;
  EXPECT_EQ(cpu.cpu_rss_mb, 717.3633);
  EXPECT_FALSE(cpu.gpu_rss_mb);  // None
  EXPECT_FALSE(cpu.gpu_util_percent);
  EXPECT_EQ(cpu.data_num, 8);
  const InferenceTimings gpu =
      *parse_stage_metrics(
           StageKind::kInfer,
           "[2024/05/01 12:00:00] root INFO:  cpu_rss(MB): 2934.3672, gpu_rss(MB): 1162.0, gpu_util: 3.0%\n"
           "[2024/05/01 12:00:00] root INFO:  total time spent(s): 0.5\n")
           .timings;
  EXPECT_EQ(gpu.gpu_rss_mb, 1162.0);
  EXPECT_EQ(gpu.gpu_util_percent, 3.0);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
