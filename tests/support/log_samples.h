#pragma once
// Log lines and curve lookups shared by the tests of the log readers (tests/report/
// train_log_test.cpp, benchmark_log_test.cpp, log_curve_test.cpp, autolog_test.cpp,
// log_metrics_test.cpp).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/run_report.h"

namespace tipc::test {

inline const report::Curve* find_curve(const report::StageMetrics& metrics, const std::string& name) {
  for (const auto& curve : metrics.curves) {
    if (curve.name == name) return &curve;
  }
  return nullptr;
}

inline std::vector<double> xs_of(const report::Curve& curve) {
  std::vector<double> xs;
  for (const auto& point : curve.points) xs.push_back(point.step);
  return xs;
}

inline std::vector<double> values_of(const report::Curve& curve) {
  std::vector<double> values;
  for (const auto& point : curve.points) values.push_back(point.value);
  return values;
}

inline std::string demo_train_line(int rank, int epoch, int iter, double loss) {
  return fmt::format("[train] rank {}/2 epoch: {}/12, iter: {}/3, loss: {:.6f}, lr: 0.003000, acc: 0.500000\n", rank,
                     epoch, iter, loss);
}

// The demo's infer.py with --benchmark True (models/alexnet/infer.py).
inline const char* const kDemoAutoLog =
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

}  // namespace tipc::test
