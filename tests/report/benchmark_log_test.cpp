#include "report/benchmark_log.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "report/log_metrics.h"
#include "support/log_samples.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::demo_train_line;
using test::find_curve;
using test::values_of;
using test::xs_of;

// ---- benchmark figures ----

// PaddleOCR's tools/program.py: the benchmark's `ips:` keyword, costs in seconds, memory in MB.
std::string paddle_ocr_step(int step, double ips, double batch_cost, int reserved_mb) {
  return fmt::format(
      "[2024/06/05 10:00:{:02}] ppocr INFO: epoch: [1/1], global_step: {}, lr: 0.001000, loss: 3.500000, "
      "avg_reader_cost: 0.01000 s, avg_batch_cost: {:.5f} s, avg_samples: 8.0, ips: {:.5f} samples/s, "
      "eta: 0:10:00, max_mem_reserved: {} MB, max_mem_allocated: 900 MB\n",
      step, step, batch_cost, ips, reserved_mb);
}

TEST(LogMetricsBenchmark, PaddleOcrBenchmarkFiguresLeaveOutTheWarmUpSteps) {
  std::string log;
  const std::vector<double> ips = {1.0, 2.0, 6.0, 10.0, 8.0};  // the first two are warm-up
  for (int step = 1; step <= 5; ++step) log += paddle_ocr_step(step, ips[step - 1], 0.1 * step, 1000 + step);
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  ASSERT_TRUE(metrics.benchmark);
  const BenchmarkFigures& b = *metrics.benchmark;
  ASSERT_TRUE(b.ips && b.batch_cost_s && b.reader_cost_s);
  EXPECT_EQ(b.ips->steps, 3u);
  EXPECT_EQ(b.skipped_steps, 2u);
  EXPECT_DOUBLE_EQ(b.ips->median, 8.0);
  EXPECT_DOUBLE_EQ(b.ips->mean, 8.0);
  EXPECT_DOUBLE_EQ(b.batch_cost_s->median, 0.4);
  EXPECT_DOUBLE_EQ(b.reader_cost_s->mean, 0.01);
  EXPECT_EQ(b.ips_unit, "samples/s");
  EXPECT_EQ(b.max_mem_reserved_mb, 1005);
  EXPECT_EQ(b.max_mem_allocated_mb, 900);
  ASSERT_EQ(b.ips_curves.size(), 1u);
  EXPECT_EQ(b.ips_curves[0].name, "ips");
  EXPECT_EQ(xs_of(b.ips_curves[0]), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(values_of(b.ips_curves[0]), ips);
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{1, 2, 3, 4, 5}));  // the curves as before
  EXPECT_FALSE(find_curve(metrics, "max_mem_reserved"));
}

TEST(LogMetricsBenchmark, PaddleSegAndPaddleClasFiguresWithBareAndGluedUnits) {
  const std::string seg =
      "2021-03-30 06:55:57 [INFO]\t[TRAIN] epoch: 1, iter: 20/500, loss: 0.5440, lr: 0.004445, batch_cost: 0.1866, "
      "reader_cost: 0.06624, ips: 21.4352 samples/sec, max_mem_reserved: 3988 MB, max_mem_allocated: 3542 MB | ETA "
      "07:13:51\n";
  const StageMetrics seg_metrics = parse_stage_metrics(StageKind::kTrain, seg);
  ASSERT_TRUE(seg_metrics.benchmark && seg_metrics.benchmark->ips);
  EXPECT_EQ(seg_metrics.benchmark->ips_unit, "samples/sec");
  EXPECT_DOUBLE_EQ(seg_metrics.benchmark->batch_cost_s->median, 0.1866);  // a bare number is seconds
  EXPECT_EQ(seg_metrics.benchmark->skipped_steps, 0u);                    // too few steps to leave any out
  EXPECT_EQ(seg_metrics.benchmark->max_mem_allocated_mb, 3542);

  const std::string clas =
      "[2022/08/01 10:00:00] ppcls INFO: [Train][Epoch 1/1][Iter: 0/2]lr: 0.10000, top1: 0.1, CELoss: 2.3, "
      "loss: 2.3, batch_cost: 0.28312s, reader_cost: 0.00123s, ips: 225.21000 samples/s, eta: 0:50:00\n"
      "[2022/08/01 10:00:01] ppcls INFO: [Train][Epoch 1/1][Iter: 1/2]lr: 0.10000, top1: 0.2, CELoss: 2.0, "
      "loss: 2.0, batch_cost: 250ms, reader_cost: 0.00177s, ips: 230.00000 samples/s, eta: 0:49:00\n";
  const BenchmarkFigures clas_figures = *parse_stage_metrics(StageKind::kTrain, clas).benchmark;
  EXPECT_DOUBLE_EQ(clas_figures.batch_cost_s->mean, (0.28312 + 0.25) / 2);
  EXPECT_DOUBLE_EQ(clas_figures.reader_cost_s->median, (0.00123 + 0.00177) / 2);
  EXPECT_DOUBLE_EQ(clas_figures.ips->median, (225.21 + 230) / 2);
  EXPECT_FALSE(clas_figures.max_mem_reserved_mb);
}

TEST(LogMetricsBenchmark, PaddleDetectionSpaceSeparatedFieldsAndDataCostAsTheReadersCost) {
  std::string log;
  for (int iter = 0; iter < 4; ++iter) {
    log += fmt::format(
        "[06/05 10:00:0{}] ppdet.engine INFO: Epoch: [0] [  {}/100] learning_rate: 0.000100 loss: 2.300000 "
        "eta: 0:10:00 batch_cost: 0.5000 data_cost: 0.0{}00 ips: 16.0000 images/s, max_mem_reserved: 1.5 GB, "
        "max_mem_allocated: 1000 MB\n",
        iter, iter, iter + 1);
  }
  const BenchmarkFigures figures = *parse_stage_metrics(StageKind::kTrain, log).benchmark;
  EXPECT_EQ(figures.ips->steps, 2u);  // four lines at epoch 0, the first two warm-up
  EXPECT_EQ(figures.ips_unit, "images/s");
  EXPECT_DOUBLE_EQ(figures.batch_cost_s->median, 0.5);  // not taken for a unit: `data_cost:` follows
  EXPECT_DOUBLE_EQ(figures.reader_cost_s->median, 0.035);
  EXPECT_DOUBLE_EQ(*figures.max_mem_reserved_mb, 1536);
}

TEST(LogMetricsBenchmark, RanksFiguresArePooledAndTheAppendedTrainerLogIsNotCountedTwice) {
  const auto line = [](int rank, int iter, double ips) {
    return fmt::format("[train] rank {}/2 epoch: 1/1, iter: {}/4, loss: 1.0, ips: {} samples/s, batch_cost: 0.1 s\n",
                       rank, iter, ips);
  };
  std::string stage_log, own_log;
  for (int iter = 1; iter <= 4; ++iter) {
    stage_log += line(0, iter, 10 * iter) + line(1, iter, 100 * iter);
    own_log += line(0, iter, 10 * iter);
  }
  const BenchmarkFigures figures = *parse_stage_metrics(StageKind::kTrain, stage_log + own_log).benchmark;

  EXPECT_EQ(figures.ips->steps, 4u);  // iterations 3 and 4 of each rank
  EXPECT_EQ(figures.skipped_steps, 4u);
  EXPECT_DOUBLE_EQ(figures.ips->mean, (30 + 40 + 300 + 400) / 4.0);
  EXPECT_DOUBLE_EQ(figures.ips->median, (40 + 300) / 2.0);
  ASSERT_EQ(figures.ips_curves.size(), 2u);
  EXPECT_EQ(figures.ips_curves[0].name, "ips (rank 0)");
  EXPECT_EQ(values_of(figures.ips_curves[0]), (std::vector<double>{10, 20, 30, 40}));
}

TEST(LogMetricsBenchmark, LogsWithoutFiguresHaveNoBenchmarkAndEvaluationLinesGiveNone) {
  EXPECT_FALSE(parse_stage_metrics(StageKind::kTrain, demo_train_line(0, 1, 1, 1.0)).benchmark);
  EXPECT_FALSE(parse_stage_metrics(StageKind::kTrain, "[Eval][Epoch 1][Iter: 0/20] ips: 12.0 samples/s\n").benchmark);
  EXPECT_FALSE(parse_stage_metrics(StageKind::kTrain, "ips: nan samples/s, batch_cost: inf\n").benchmark);
  EXPECT_FALSE(parse_stage_metrics(StageKind::kEval, paddle_ocr_step(1, 1, 1, 1)).benchmark);
  EXPECT_TRUE(parse_stage_metrics(StageKind::kTrain, "ips: 12.5 samples/s\n").benchmark->ips);  // no position needed
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
