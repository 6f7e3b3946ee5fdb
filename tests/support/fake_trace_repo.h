#pragma once
// A repository with one runner and one train_params config, for the tracer's tests; `deploy/`
// exists as in PaddleClas.
#include <filesystem>
#include <string>

#include "support/temp_dir.h"
#include "trace/trace_request.h"

namespace tipc::test {

struct FakeTraceRepo {
  TempDir dir;
  explicit FakeTraceRepo(const std::string& runner_text, const std::string& config_lines = "") {
    dir.write("test_tipc/test_train_inference_python.sh", runner_text);
    dir.write(
        "test_tipc/configs/m/train_infer_python.txt",
        "===========================train_params===========================\nmodel_name:MyModel\npython:python3.7\n" +
            config_lines);
    std::filesystem::create_directories(dir.path() / "deploy");
  }
  trace::TraceRequest request(trace::Isolation isolation = trace::Isolation::automatic) const {
    trace::TraceRequest r;
    r.repo_root = dir.path().string();
    r.runner = "test_tipc/test_train_inference_python.sh";
    r.config_arg = "test_tipc/configs/m/train_infer_python.txt";
    r.mode = "lite_train_lite_infer";
    r.interpreter = "python3.7";
    r.model_name = "MyModel";
    r.timeout_seconds = 20;
    r.isolation = isolation;
    return r;
  }
};

}  // namespace tipc::test
