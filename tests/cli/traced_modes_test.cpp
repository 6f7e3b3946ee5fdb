// The modes of a traced config (issue 38, item 5): a config planned from its runner takes
// the modes that runner takes (its chains', as `tipc-run modes` lists them), not only the
// dialect's; a mode it does not take is an error naming the runner and its modes.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
using nlohmann::json;

// A repository of the paper-reproduction template (its only marker is the runner: dialect
// template, whose known modes are the four train/infer ones) whose runner trains in any MODE.
class TracedModes : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("test_tipc/configs/m/train_infer_python.txt",
                "===========================train_params===========================\nmodel_name:MyModel\n"
                "python:python3.7\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n");
    repo_.write("test_tipc/test_train_inference_python.sh",
                "MODE=$2\npython3.7 tools/train.py --mode=${MODE} > train.log 2>&1\n");
  }
  test::RunResult dry_run(const std::string& mode) {
    return test::run_tipc(repo_.path(),
                          {"test_tipc/configs/m/train_infer_python.txt", mode, "--dry-run", "--format", "jsonl"},
                          {"TIPC_TRACE_CACHE="});
  }
  static std::string last_argument(const test::RunResult& r) {
    for (const auto& line : test::lines_of(r.out)) {
      if (!line.empty()) return json::parse(line)["argv"].back();
    }
    return "";
  }
  test::TempDir repo_;
};

TEST_F(TracedModes, TheRunnersOwnModesArePlannedThoughTheDialectDoesNotListThem) {
  for (const std::string mode : {"klquant_whole_infer", "benchmark_train", "whole_infer"}) {
    const auto r = dry_run(mode);
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << r.err;
    EXPECT_EQ(last_argument(r), "--mode=" + mode) << "the runner was traced in that mode";
  }
}

TEST_F(TracedModes, AModeTheRunnerDoesNotTakeIsAnErrorNamingItsModes) {
  const auto r = dry_run("paddle2onnx_infer");  // another chain's mode
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown mode 'paddle2onnx_infer' for its runner test_tipc/test_train_inference_python.sh "
                       "(chain train_infer_python): it takes lite_train_lite_infer, lite_train_whole_infer, "
                       "whole_train_whole_infer, whole_infer, klquant_whole_infer, benchmark_train"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
