#pragma once
// The sample run (support/sample_report.h) on an NVIDIA GPU (issue 40), for the renderers'
// tests: the driver described the GPU and measured the train, which shared the GPU with a
// process the run did not start; the TIMEOUT's log held the stack where it hung.
#include "support/sample_report.h"

namespace tipc::test {

inline const std::string kForeignProcessWarning =
    "GPU 0: pid 4242 (python3 other.py) holds 2048 MiB, not started by this run";

inline report::RunReport sample_gpu_run() {
  report::RunReport run = sample_run_report();
  run.gpus = {"0"};
  run.gpu_devices = {{"0", 1, 0, "NVIDIA H100 80GB HBM3", "GPU-9f8e7d6c-1111-2222-3333-444455556666"}};
  report::StageReport& train = run.plans[0].stages[0];
  train.gpus = {"0"};
  train.gpu.samples = 20;
  train.gpu.memory_peak_mib = 10444.8;
  train.gpu.utilization_mean_percent = 87.4;
  train.gpu.utilization_peak_percent = 100;
  train.gpu.power_mean_watts = 250.2;
  train.gpu.power_peak_watts = 301;
  train.gpu.throttle_reasons = {"sw_power_cap"};
  train.gpu_warnings = {kForeignProcessWarning};
  run.plans[0].stages[2].stack = {"hang.py:5 in spin", "hang.py:9 in <module>"};
  return run;
}

// Text from a log or the driver that would act in a page, a table or a terminal.
inline const std::string kHostileText = "<script>alert(1)</script>|`x`\x1b[2J\x07";

}  // namespace tipc::test
