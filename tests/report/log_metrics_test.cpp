#include "report/log_metrics.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support/temp_dir.h"

namespace tipc::report {
namespace {

const Curve* find_curve(const StageMetrics& metrics, const std::string& name) {
  for (const auto& curve : metrics.curves) {
    if (curve.name == name) return &curve;
  }
  return nullptr;
}

std::vector<double> xs_of(const Curve& curve) {
  std::vector<double> xs;
  for (const auto& point : curve.points) xs.push_back(point.step);
  return xs;
}

std::vector<double> values_of(const Curve& curve) {
  std::vector<double> values;
  for (const auto& point : curve.points) values.push_back(point.value);
  return values;
}

std::string demo_train_line(int rank, int epoch, int iter, double loss) {
  return fmt::format("[train] rank {}/2 epoch: {}/12, iter: {}/3, loss: {:.6f}, lr: 0.003000, acc: 0.500000\n", rank,
                     epoch, iter, loss);
}

TEST(LogMetrics, DemoTrainLinesGiveACurvePerMetricAndRankOverTheGlobalIteration) {
  std::string log;
  for (int epoch = 1; epoch <= 2; ++epoch) {
    for (int iter = 1; iter <= 3; ++iter) {
      log += demo_train_line(0, epoch, iter, 10.0 * epoch + iter);
      log += demo_train_line(1, epoch, iter, 20.0 * epoch + iter);
    }
  }
  log += "[train] rank 0 saved /tmp/out/latest.pt\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

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

TEST(LogMetrics, TheTrainersOwnLogAppendedToTheStageLogAddsNoPoints) {
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
  const StageMetrics metrics = parse_stage_metrics("train", stage_log + own_log);

  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{11, 12, 13, 21, 22, 23}));
}

TEST(LogMetrics, StepsThatGoBackAddNoPoints) {
  const StageMetrics metrics =
      parse_stage_metrics("train", "global_step: 10, loss: 1\nglobal_step: 10, loss: 9\nglobal_step: 5, loss: 9\n"
                                   "global_step: 20, loss: 0.5\nglobal_step: 20, lr: 0.1\n");
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{10, 20}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "lr")), (std::vector<double>{20}));  // its own line at the same step
}

TEST(LogMetrics, TwoRecordsOnOneLineAreSplitAtTheRepeatedKey) {
  // Two ranks' writes that met mid-line, as in an early demo log.
  const std::string log =
      "[train] rank 0/2 epoch: 1/12, iter: 1/6, loss: 1.367052, lr: 0.003000, acc: 0.375000\n"
      "[train] rank 0/2 epoch: 1/12, iter: 2/6, loss: 1.349782, lr: 0.003000, acc: 0.500000"
      "[train] rank 1/2 epoch: 1/12, iter: 2/6, loss: 1.368232, lr: 0.003000, acc: 0.375000\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1, 2}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 0)")), (std::vector<double>{1.367052, 1.349782}));
  EXPECT_EQ(values_of(*find_curve(metrics, "acc (rank 0)")), (std::vector<double>{0.375, 0.5}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss (rank 1)")), (std::vector<double>{2}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss (rank 1)")), (std::vector<double>{1.368232}));
}

TEST(LogMetrics, PaddleOcrLinesUseTheGlobalStepAndSkipThroughputFields) {
  const std::string log =
      "[2022/08/01 10:00:00] ppocr INFO: epoch: [1/10], global_step: 10, lr: 0.001000, acc: 0.250000, "
      "norm_edit_dis: 0.5, loss: 3.500000, avg_reader_cost: 0.50000 s, avg_batch_cost: 1.20000 s, "
      "avg_samples: 8.0, ips: 6.66 samples/s, eta: 0:10:00\n"
      "[2022/08/01 10:00:05] ppocr INFO: epoch: [2/10], global_step: 20, lr: 0.000900, acc: 0.500000, "
      "norm_edit_dis: 0.7, loss: 2.000000, avg_reader_cost: 0.50000 s, avg_batch_cost: 1.20000 s, "
      "avg_samples: 8.0, ips: 6.66 samples/s, eta: 0:09:00\n"
      "[2022/08/01 10:00:06] ppocr INFO: cur metric, acc: 0.61, norm_edit_dis: 0.8, fps: 120.5\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

  std::vector<std::string> names;
  for (const auto& curve : metrics.curves) names.push_back(curve.name);
  EXPECT_EQ(names, (std::vector<std::string>{"lr", "acc", "norm_edit_dis", "loss"}));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{10, 20}));
  EXPECT_EQ(values_of(*find_curve(metrics, "loss")), (std::vector<double>{3.5, 2.0}));
  EXPECT_DOUBLE_EQ(metrics.final_values.at("acc"), 0.5);  // the evaluation line is no train point
}

TEST(LogMetrics, PaddleClasIterationsRestartEachEpochAndEvaluationsAreNotTrainPoints) {
  const std::string log =
      "[2022/08/01 10:00:00] ppcls INFO: [Train][Epoch 1/10][Iter: 0/100]lr: 0.10000, top1: 0.1, top5: 0.3, "
      "CELoss: 2.3, loss: 2.3, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:50:00\n"
      "[2022/08/01 10:00:10] ppcls INFO: [Train][Epoch 1/10][Iter: 50/100]lr: 0.10000, top1: 0.2, top5: 0.4, "
      "CELoss: 2.0, loss: 2.0, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:49:00\n"
      "[2022/08/01 10:00:20] ppcls INFO: [Train][Epoch 1/10][Avg]top1: 0.15, top5: 0.35, CELoss: 2.1, loss: 2.1\n"
      "[2022/08/01 10:00:21] ppcls INFO: [Eval][Epoch 1][Iter: 0/20]CELoss: 9.9, loss: 9.9, top1: 0.9\n"
      "[2022/08/01 10:00:30] ppcls INFO: [Train][Epoch 2/10][Iter: 0/100]lr: 0.09000, top1: 0.3, top5: 0.5, "
      "CELoss: 1.8, loss: 1.8, batch_cost: 0.28 s, reader_cost: 0.001 s, ips: 225.2 images/s, eta: 0:48:00\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

  const Curve* loss = find_curve(metrics, "CELoss");
  ASSERT_TRUE(loss);
  EXPECT_EQ(xs_of(*loss), (std::vector<double>{0, 50, 100}));
  EXPECT_EQ(values_of(*loss), (std::vector<double>{2.3, 2.0, 1.8}));
  EXPECT_TRUE(find_curve(metrics, "top5"));
  EXPECT_FALSE(find_curve(metrics, "batch_cost"));
  EXPECT_FALSE(find_curve(metrics, "ips"));
}

TEST(LogMetrics, IterationsThatCountOnAcrossEpochsAreAlreadyGlobal) {
  const std::string log =
      "2021-03-30 06:55:57 [INFO]\t[TRAIN] epoch: 1, iter: 20/500, loss: 2.0859, lr: 0.009657, batch_cost: 0.5344\n"
      "2021-03-30 06:56:04 [INFO]\t[TRAIN] epoch: 1, iter: 40/500, loss: 1.8769, lr: 0.009295, batch_cost: 0.3483\n"
      "2021-03-30 06:56:11 [INFO]\t[TRAIN] epoch: 2, iter: 60/500, loss: 1.7455, lr: 0.008931, batch_cost: 0.3532\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

  ASSERT_TRUE(find_curve(metrics, "loss"));
  EXPECT_EQ(xs_of(*find_curve(metrics, "loss")), (std::vector<double>{20, 40, 60}));
}

TEST(LogMetrics, EpochOnlyLinesUseTheEpochAsX) {
  const StageMetrics metrics = parse_stage_metrics("train", "epoch: 1, loss: 0.9\nepoch: 2, loss: 0.7\n");
  ASSERT_EQ(metrics.curves.size(), 1u);
  EXPECT_EQ(xs_of(metrics.curves[0]), (std::vector<double>{1, 2}));
}

TEST(LogMetrics, EvalLogsGiveTheLastValueOfEachMetric) {
  const std::string log =
      "loading checkpoint /tmp/x.pt\n"
      "[eval] images: 16, top1: 0.5, loss: 0.9\n"
      "[eval] images: 32, top1: 0.968750, loss: 0.077381\n";
  const StageMetrics metrics = parse_stage_metrics("eval", log);

  const std::map<std::string, double> expected = {{"images", 32}, {"top1", 0.96875}, {"loss", 0.077381}};
  EXPECT_EQ(metrics.final_values, expected);
  EXPECT_TRUE(metrics.curves.empty());
}

// The demo's infer.py with --benchmark True (models/alexnet/infer.py).
const char* const kDemoAutoLog =
    "infer result (circle): /data/val/circle/000.ppm\t[0, 0.998800]\n"
    "[2024/05/01 12:00:00] root INFO: \n"
    "\n"
    "[2024/05/01 12:00:00] root INFO: ---------------------- Env info ----------------------\n"
    "[2024/05/01 12:00:00] root INFO:  OS_version: Linux-6.1.0-x86_64-with-glibc2.36\n"
    "[2024/05/01 12:00:00] root INFO:  CUDA_version: None\n"
    "[2024/05/01 12:00:00] root INFO: ----------------------- Conf info -----------------------\n"
    "[2024/05/01 12:00:00] root INFO:  runtime_device: cpu\n"
    "[2024/05/01 12:00:00] root INFO:  enable_mkldnn: False\n"
    "[2024/05/01 12:00:00] root INFO:  cpu_math_library_num_threads: 6\n"
    "[2024/05/01 12:00:00] root INFO: ----------------------- Model info ----------------------\n"
    "[2024/05/01 12:00:00] root INFO:  model_name: alexnet\n"
    "[2024/05/01 12:00:00] root INFO:  precision: fp32\n"
    "[2024/05/01 12:00:00] root INFO: ----------------------- Data info -----------------------\n"
    "[2024/05/01 12:00:00] root INFO:  batch_size: 2\n"
    "[2024/05/01 12:00:00] root INFO:  input_shape: dynamic\n"
    "[2024/05/01 12:00:00] root INFO:  data_num: 8\n"
    "[2024/05/01 12:00:00] root INFO: ----------------------- Perf info -----------------------\n"
    "[2024/05/01 12:00:00] root INFO:  cpu_rss(MB): 717.3633, gpu_rss(MB): None, gpu_util: None%\n"
    "[2024/05/01 12:00:00] root INFO:  total time spent(s): 0.3135\n"
    "[2024/05/01 12:00:00] root INFO:  preprocess_time(ms): 47.2865, inference_time(ms): 266.1366, "
    "postprocess_time(ms): 0.061\n";

TEST(LogMetrics, AutoLogSummaryGivesTheInferenceTimings) {
  const StageMetrics metrics = parse_stage_metrics("infer", kDemoAutoLog);

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

TEST(LogMetrics, AutoLogKeyLinesMayCarryAnIdentifierAndTheCppVariantLogsMilliseconds) {
  const std::string log =
      "I0501 12:00:00.000 autolog.h:50] [det] use_gpu: 1\n"
      "I0501 12:00:00.000 autolog.h:51] [det] cpu_math_library_num_threads: None\n"
      "I0501 12:00:00.000 autolog.h:52] [det] precision: fp16\n"
      "I0501 12:00:00.000 autolog.h:60] [det] Total time spent(ms): 1234\n"
      "I0501 12:00:00.000 autolog.h:61] [det] preprocess_time(ms): 1.5, inference_time(ms): 7.25, "
      "postprocess_time(ms): 0.5\n";
  const StageMetrics metrics = parse_stage_metrics("infer", log);

  ASSERT_TRUE(metrics.timings);
  EXPECT_EQ(metrics.timings->inference_ms, 7.25);
  EXPECT_EQ(metrics.timings->total_ms, 1234);
  EXPECT_EQ(metrics.timings->device, "gpu");
  EXPECT_EQ(metrics.timings->precision, "fp16");
  EXPECT_FALSE(metrics.timings->cpu_threads);
}

TEST(LogMetrics, InferLogsWithoutAutoLogHaveNoTimings) {
  const StageMetrics metrics =
      parse_stage_metrics("infer", "infer result (circle): /data/val/circle/000.ppm\t[0, 0.998800]\nbatch_size: 4\n");
  EXPECT_FALSE(metrics.timings);
}

TEST(LogMetrics, OtherStageKindsHaveNoMetrics) {
  const StageMetrics metrics = parse_stage_metrics("export", demo_train_line(0, 1, 1, 1.0));
  EXPECT_TRUE(metrics.curves.empty());
  EXPECT_TRUE(metrics.final_values.empty());
  EXPECT_FALSE(metrics.timings);
}

TEST(LogMetrics, GarbageAndInterleavedOutputAreSkipped) {
  std::string log;
  log += demo_train_line(0, 1, 1, 1.0);
  log += std::string("\x00\xff\xfe binary: \x01\x02", 14) + "\n";
  log += "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n";
  log += "12:34:56 epoch: soon, iter: ?, loss: nan\n";      // no numbers
  log += "[train] rank 0/2 epoch: 1/12, iter: 2/3, loss: nan, lr: inf\n";  // not finite: no points
  log += "W0501 12:00:00 warnings.py:109] UserWarning: iter: 5 of something\r\n";
  log += std::string(100000, 'x') + " epoch: 1, iter: 9, loss: 5\n";  // beyond the line cap
  log += "[train] rank 0/2 epoch: 1/12, iter: 3/3, loss: 3.000000, lr: 0.003000, acc: 0.500000\r\n";
  const StageMetrics metrics = parse_stage_metrics("train", log);

  const Curve* loss = find_curve(metrics, "loss (rank 0)");
  ASSERT_TRUE(loss);
  EXPECT_EQ(xs_of(*loss), (std::vector<double>{1, 3}));
  EXPECT_EQ(values_of(*loss), (std::vector<double>{1, 3}));
  for (const auto& curve : metrics.curves) EXPECT_EQ(curve.name.find("binary"), std::string::npos);
}

TEST(LogMetrics, LongCurvesAreThinnedEvenlyKeepingTheFirstAndLastPoint) {
  std::string log;
  const int kIterations = 100001;
  for (int i = 1; i <= kIterations; ++i) log += fmt::format("global_step: {}, loss: {}\n", i, 2 * i);
  const StageMetrics metrics = parse_stage_metrics("train", log);

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

TEST(LogMetrics, ShortCurvesKeepEveryPoint) {
  MetricsLimits limits;
  limits.max_points_per_curve = 5;
  StageMetricsParser parser("train", limits);
  for (int i = 1; i <= 5; ++i) parser.feed(fmt::format("global_step: {}, loss: {}\n", i, i));
  EXPECT_EQ(xs_of(parser.finish().curves.at(0)), (std::vector<double>{1, 2, 3, 4, 5}));
}

TEST(LogMetrics, ChunkBoundariesDoNotChangeTheResult) {
  std::string log;
  for (int iter = 1; iter <= 3; ++iter) log += demo_train_line(iter % 2, 1, iter, iter);
  const StageMetrics whole = parse_stage_metrics("train", log);
  for (std::size_t split = 0; split <= log.size(); ++split) {
    StageMetricsParser parser("train");
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
  EXPECT_EQ(parse_stage_metrics_file("infer", path).timings->inference_ms, 266.1366);
  EXPECT_FALSE(parse_stage_metrics_file("infer", (dir.path() / "missing.log").string()).timings);
}

// ---- benchmark figures ----

// PaddleOCR's tools/program.py: the benchmark's `ips:` keyword, costs in seconds, memory in MB.
std::string paddle_ocr_step(int step, double ips, double batch_cost, int reserved_mb) {
  return fmt::format(
      "[2024/06/05 10:00:{:02}] ppocr INFO: epoch: [1/1], global_step: {}, lr: 0.001000, loss: 3.500000, "
      "avg_reader_cost: 0.01000 s, avg_batch_cost: {:.5f} s, avg_samples: 8.0, ips: {:.5f} samples/s, "
      "eta: 0:10:00, max_mem_reserved: {} MB, max_mem_allocated: 900 MB\n",
      step, step, batch_cost, ips, reserved_mb);
}

TEST(LogMetrics, PaddleOcrBenchmarkFiguresLeaveOutTheWarmUpSteps) {
  std::string log;
  const std::vector<double> ips = {1.0, 2.0, 6.0, 10.0, 8.0};  // the first two are warm-up
  for (int step = 1; step <= 5; ++step) log += paddle_ocr_step(step, ips[step - 1], 0.1 * step, 1000 + step);
  const StageMetrics metrics = parse_stage_metrics("train", log);

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

TEST(LogMetrics, PaddleSegAndPaddleClasFiguresWithBareAndGluedUnits) {
  const std::string seg =
      "2021-03-30 06:55:57 [INFO]\t[TRAIN] epoch: 1, iter: 20/500, loss: 0.5440, lr: 0.004445, batch_cost: 0.1866, "
      "reader_cost: 0.06624, ips: 21.4352 samples/sec, max_mem_reserved: 3988 MB, max_mem_allocated: 3542 MB | ETA "
      "07:13:51\n";
  const StageMetrics seg_metrics = parse_stage_metrics("train", seg);
  ASSERT_TRUE(seg_metrics.benchmark && seg_metrics.benchmark->ips);
  EXPECT_EQ(seg_metrics.benchmark->ips_unit, "samples/sec");
  EXPECT_DOUBLE_EQ(seg_metrics.benchmark->batch_cost_s->median, 0.1866);  // a bare number is seconds
  EXPECT_EQ(seg_metrics.benchmark->skipped_steps, 0u);  // too few steps to leave any out
  EXPECT_EQ(seg_metrics.benchmark->max_mem_allocated_mb, 3542);

  const std::string clas =
      "[2022/08/01 10:00:00] ppcls INFO: [Train][Epoch 1/1][Iter: 0/2]lr: 0.10000, top1: 0.1, CELoss: 2.3, "
      "loss: 2.3, batch_cost: 0.28312s, reader_cost: 0.00123s, ips: 225.21000 samples/s, eta: 0:50:00\n"
      "[2022/08/01 10:00:01] ppcls INFO: [Train][Epoch 1/1][Iter: 1/2]lr: 0.10000, top1: 0.2, CELoss: 2.0, "
      "loss: 2.0, batch_cost: 250ms, reader_cost: 0.00177s, ips: 230.00000 samples/s, eta: 0:49:00\n";
  const BenchmarkFigures clas_figures = *parse_stage_metrics("train", clas).benchmark;
  EXPECT_DOUBLE_EQ(clas_figures.batch_cost_s->mean, (0.28312 + 0.25) / 2);
  EXPECT_DOUBLE_EQ(clas_figures.reader_cost_s->median, (0.00123 + 0.00177) / 2);
  EXPECT_DOUBLE_EQ(clas_figures.ips->median, (225.21 + 230) / 2);
  EXPECT_FALSE(clas_figures.max_mem_reserved_mb);
}

TEST(LogMetrics, PaddleDetectionSpaceSeparatedFieldsAndDataCostAsTheReadersCost) {
  std::string log;
  for (int iter = 0; iter < 4; ++iter) {
    log += fmt::format(
        "[06/05 10:00:0{}] ppdet.engine INFO: Epoch: [0] [  {}/100] learning_rate: 0.000100 loss: 2.300000 "
        "eta: 0:10:00 batch_cost: 0.5000 data_cost: 0.0{}00 ips: 16.0000 images/s, max_mem_reserved: 1.5 GB, "
        "max_mem_allocated: 1000 MB\n",
        iter, iter, iter + 1);
  }
  const BenchmarkFigures figures = *parse_stage_metrics("train", log).benchmark;
  EXPECT_EQ(figures.ips->steps, 2u);  // four lines at epoch 0, the first two warm-up
  EXPECT_EQ(figures.ips_unit, "images/s");
  EXPECT_DOUBLE_EQ(figures.batch_cost_s->median, 0.5);  // not taken for a unit: `data_cost:` follows
  EXPECT_DOUBLE_EQ(figures.reader_cost_s->median, 0.035);
  EXPECT_DOUBLE_EQ(*figures.max_mem_reserved_mb, 1536);
}

TEST(LogMetrics, RanksFiguresArePooledAndTheAppendedTrainerLogIsNotCountedTwice) {
  const auto line = [](int rank, int iter, double ips) {
    return fmt::format("[train] rank {}/2 epoch: 1/1, iter: {}/4, loss: 1.0, ips: {} samples/s, batch_cost: 0.1 s\n",
                       rank, iter, ips);
  };
  std::string stage_log, own_log;
  for (int iter = 1; iter <= 4; ++iter) {
    stage_log += line(0, iter, 10 * iter) + line(1, iter, 100 * iter);
    own_log += line(0, iter, 10 * iter);
  }
  const BenchmarkFigures figures = *parse_stage_metrics("train", stage_log + own_log).benchmark;

  EXPECT_EQ(figures.ips->steps, 4u);  // iterations 3 and 4 of each rank
  EXPECT_EQ(figures.skipped_steps, 4u);
  EXPECT_DOUBLE_EQ(figures.ips->mean, (30 + 40 + 300 + 400) / 4.0);
  EXPECT_DOUBLE_EQ(figures.ips->median, (40 + 300) / 2.0);
  ASSERT_EQ(figures.ips_curves.size(), 2u);
  EXPECT_EQ(figures.ips_curves[0].name, "ips (rank 0)");
  EXPECT_EQ(values_of(figures.ips_curves[0]), (std::vector<double>{10, 20, 30, 40}));
}

TEST(LogMetrics, LogsWithoutFiguresHaveNoBenchmarkAndEvaluationLinesGiveNone) {
  EXPECT_FALSE(parse_stage_metrics("train", demo_train_line(0, 1, 1, 1.0)).benchmark);
  EXPECT_FALSE(parse_stage_metrics("train", "[Eval][Epoch 1][Iter: 0/20] ips: 12.0 samples/s\n").benchmark);
  EXPECT_FALSE(parse_stage_metrics("train", "ips: nan samples/s, batch_cost: inf\n").benchmark);
  EXPECT_FALSE(parse_stage_metrics("eval", paddle_ocr_step(1, 1, 1, 1)).benchmark);
  EXPECT_TRUE(parse_stage_metrics("train", "ips: 12.5 samples/s\n").benchmark->ips);  // no position needed
}

TEST(LogMetrics, AutoLogPerfInfoGivesMemoryAndGpuUtilisation) {
  const InferenceTimings cpu = *parse_stage_metrics("infer", kDemoAutoLog).timings;
  EXPECT_EQ(cpu.cpu_rss_mb, 717.3633);
  EXPECT_FALSE(cpu.gpu_rss_mb);  // None
  EXPECT_FALSE(cpu.gpu_util_percent);
  EXPECT_EQ(cpu.data_num, 8);
  const InferenceTimings gpu = *parse_stage_metrics(
      "infer", "[2024/05/01 12:00:00] root INFO:  cpu_rss(MB): 2934.3672, gpu_rss(MB): 1162.0, gpu_util: 3.0%\n"
               "[2024/05/01 12:00:00] root INFO:  total time spent(s): 0.5\n").timings;
  EXPECT_EQ(gpu.gpu_rss_mb, 1162.0);
  EXPECT_EQ(gpu.gpu_util_percent, 3.0);
}

TEST(LogMetrics, CurveNamesSplitIntoMetricAndRank) {
  EXPECT_EQ(curve_name("loss", 1), "loss (rank 1)");
  EXPECT_EQ(curve_name("loss", std::nullopt), "loss");
  const CurveNameParts ranked = split_curve_name("CELoss (rank 12)");
  EXPECT_EQ(ranked.metric, "CELoss");
  EXPECT_EQ(ranked.rank, 12);
  const CurveNameParts plain = split_curve_name("acc (rank x)");
  EXPECT_EQ(plain.metric, "acc (rank x)");
  EXPECT_FALSE(plain.rank);
}

}  // namespace
}  // namespace tipc::report
