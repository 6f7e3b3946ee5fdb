#include "report/train_log.h"

#include <gtest/gtest.h>

#include "report/log_metrics.h"
#include "support/log_samples.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::demo_train_line;
using test::find_curve;
using test::values_of;
using test::xs_of;

TEST(LogMetricsTrain, DemoTrainLinesGiveACurvePerMetricAndRankOverTheGlobalIteration) {
  std::string log;
  for (int epoch = 1; epoch <= 2; ++epoch) {
    for (int iter = 1; iter <= 3; ++iter) {
      log += demo_train_line(0, epoch, iter, 10.0 * epoch + iter);
      log += demo_train_line(1, epoch, iter, 20.0 * epoch + iter);
    }
  }
  log += "[train] rank 0 saved /tmp/out/latest.pt\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  ASSERT_EQ(metrics.curves.size(), 6u);  // loss, lr, acc for two ranks
  const Curve* rank0 = find_curve(metrics, "loss (rank 0)");
  const Curve* rank1 = find_curve(metrics, "loss (rank 1)");
  ASSERT_TRUE(rank0 && rank1);
  EXPECT_EQ(xs_of(*rank0), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values_of(*rank0), (std::vector<double>{11, 12, 13, 21, 22, 23}));
  EXPECT_EQ(values_of(*rank1), (std::vector<double>{21, 22, 23, 41, 42, 43}));
  ASSERT_TRUE(find_curve(metrics, "acc (rank 1)"));
  EXPECT_DOUBLE_EQ(metrics.final_values.at("loss (rank 0)"), 23);
  EXPECT_DOUBLE_EQ(metrics.final_values.at("lr (rank 1)"), 0.003);
  EXPECT_FALSE(metrics.timings);
}

TEST(LogMetricsTrain, TheTrainersOwnLogAppendedToTheStageLogAddsNoPoints) {
  std::string own_log;
  for (int epoch = 1; epoch <= 2; ++epoch) {
    for (int iter = 1; iter <= 3; ++iter) own_log += demo_train_line(0, epoch, iter, 10.0 * epoch + iter);
  }
  std::string stage_log;
  for (int epoch = 1; epoch <= 2; ++epoch) {
    for (int iter = 1; iter <= 3; ++iter) {
      stage_log += demo_train_line(0, epoch, iter, 10.0 * epoch + iter) + demo_train_line(1, epoch, iter, 1.0);
    }
  }
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, stage_log + own_log);

  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{11, 12, 13, 21, 22, 23}));
}

TEST(LogMetricsTrain, StepsThatGoBackAddNoPoints) {
  const StageMetrics metrics =
      parse_stage_metrics(StageKind::kTrain,
                          "global_step: 10, loss: 1\nglobal_step: 10, loss: 9\nglobal_step: 5, loss: 9\n"
                          "global_step: 20, loss: 0.5\nglobal_step: 20, lr: 0.1\n");
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{10, 20}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "lr")), (std::vector<double>{20}));  // its own line at the same step
}

TEST(LogMetricsTrain, TwoRecordsOnOneLineAreSplitAtTheRepeatedKey) {
  // Two ranks' writes that met mid-line, as in an early demo log.
  const std::string log =
      "[train] rank 0/2 epoch: 1/12, iter: 1/6, loss: 1.367052, lr: 0.003000, acc: 0.375000\n"
      "[train] rank 0/2 epoch: 1/12, iter: 2/6, loss: 1.349782, lr: 0.003000, acc: 0.500000"
      "[train] rank 1/2 epoch: 1/12, iter: 2/6, loss: 1.368232, lr: 0.003000, acc: 0.375000\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1, 2}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1.367052, 1.349782}));
  EXPECT_EQ(values_of(*find_curve(metrics, "acc (rank 0)")), (std::vector<double>{0.375, 0.5}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 1)")), (std::vector<double>{2}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 1)")), (std::vector<double>{1.368232}));
}

TEST(LogMetricsTrain, PaddleOcrLinesUseTheGlobalStepAndSkipThroughputFields) {
  const std::string log =
      "[2022/08/01 10:00:00] ppocr INFO: epoch: [1/10], global_step: 10, lr: 0.001000, acc: 0.250000, "
      "norm_edit_dis: 0.5, loss: 3.500000, avg_reader_cost: 0.50000 s, avg_batch_cost: 1.20000 s, "
      "avg_samples: 8.0, ips: 6.66 samples/s, eta: 0:10:00\n"
      "[2022/08/01 10:00:05] ppocr INFO: epoch: [2/10], global_step: 20, lr: 0.000900, acc: 0.500000, "
      "norm_edit_dis: 0.7, loss: 2.000000, avg_reader_cost: 0.50000 s, avg_batch_cost: 1.20000 s, "
      "avg_samples: 8.0, ips: 6.66 samples/s, eta: 0:09:00\n"
      "[2022/08/01 10:00:06] ppocr INFO: cur metric, acc: 0.61, norm_edit_dis: 0.8, fps: 120.5\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  std::vector<std::string> names;
  for (const auto& curve : metrics.curves) names.push_back(curve.name);
  EXPECT_EQ(names, (std::vector<std::string>{"lr", "acc", "norm_edit_dis", "loss"}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{10, 20}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss")), (std::vector<double>{3.5, 2.0}));
  EXPECT_DOUBLE_EQ(metrics.final_values.at("acc"), 0.5);  // the evaluation line is no train point
}

TEST(LogMetricsTrain, PaddleClasIterationsRestartEachEpochAndEvaluationsAreNotTrainPoints) {
  const std::string log =
      "[2022/08/01 10:00:00] ppcls INFO: [Train][Epoch 1/10][Iter: 0/100]lr: 0.10000, top1: 0.1, top5: 0.3, "
      "CELoss: 2.3, loss: 2.3, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:50:00\n"
      "[2022/08/01 10:00:10] ppcls INFO: [Train][Epoch 1/10][Iter: 50/100]lr: 0.10000, top1: 0.2, top5: 0.4, "
      "CELoss: 2.0, loss: 2.0, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:49:00\n"
      "[2022/08/01 10:00:20] ppcls INFO: [Train][Epoch 1/10][Avg]top1: 0.15, top5: 0.35, CELoss: 2.1, loss: 2.1\n"
      "[2022/08/01 10:00:21] ppcls INFO: [Eval][Epoch 1][Iter: 0/20]CELoss: 9.9, loss: 9.9, top1: 0.9\n"
      "[2022/08/01 10:00:30] ppcls INFO: [Train][Epoch 2/10][Iter: 0/100]lr: 0.09000, top1: 0.3, top5: 0.5, "
      "CELoss: 1.8, loss: 1.8, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:48:00\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  const Curve* loss = find_curve(metrics, "CELoss");
  ASSERT_TRUE(loss);
  EXPECT_EQ(xs_of(*loss), (std::vector<double>{0, 50, 100}));
  EXPECT_EQ(values_of(*loss), (std::vector<double>{2.3, 2.0, 1.8}));
  EXPECT_TRUE(find_curve(metrics, "top5"));
  EXPECT_FALSE(find_curve(metrics, "batch_cost"));
  EXPECT_FALSE(find_curve(metrics, "ips"));
}

TEST(LogMetricsTrain, IterationsThatCountOnAcrossEpochsAreAlreadyGlobal) {
  const std::string log =
      "2021-03-30 06:55:57 [INFO]\t[TRAIN] epoch: 1, iter: 20/500, loss: 2.0859, lr: 0.009657, batch_cost: 0.5344\n"
      "2021-03-30 06:56:04 [INFO]\t[TRAIN] epoch: 1, iter: 40/500, loss: 1.8769, lr: 0.009295, batch_cost: 0.3483\n"
      "2021-03-30 06:56:11 [INFO]\t[TRAIN] epoch: 2, iter: 60/500, loss: 1.7455, lr: 0.008931, batch_cost: 0.3532\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  ASSERT_TRUE(find_curve(metrics, "loss"));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{20, 40, 60}));
}

TEST(LogMetricsTrain, EpochOnlyLinesUseTheEpochAsX) {
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, "epoch: 1, loss: 0.9\nepoch: 2, loss: 0.7\n");
  ASSERT_EQ(metrics.curves.size(), 1u);
  EXPECT_EQ(xs_of(metrics.curves[0]), (std::vector<double>{1, 2}));
}

TEST(LogMetricsTrain, GarbageAndInterleavedOutputAreSkipped) {
  std::string log;
  log += demo_train_line(0, 1, 1, 1.0);
  log += std::string("\x00\xff\xfe binary: \x01\x02", 14) + "\n";
  log += "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n";
  log += "12:34:56 epoch: soon, iter: ?, loss: nan\n";                     // no numbers
  log += "[train] rank 0/2 epoch: 1/12, iter: 2/3, loss: nan, lr: inf\n";  // not finite: no points
  log += "W0501 12:00:00 warnings.py:109] UserWarning: iter: 5 of something\r\n";
  log += std::string(100000, 'x') + " epoch: 1, iter: 9, loss: 5\n";  // beyond the line cap
  log += "[train] rank 0/2 epoch: 1/12, iter: 3/3, loss: 3.000000, lr: 0.003000, acc: 0.500000\r\n";
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  const Curve* loss = find_curve(metrics, "loss (rank 0)");
  ASSERT_TRUE(loss);
  EXPECT_EQ(xs_of(*loss), (std::vector<double>{1, 3}));
  EXPECT_EQ(values_of(*loss), (std::vector<double>{1, 3}));
  for (const auto& curve : metrics.curves) EXPECT_EQ(curve.name.find("binary"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
