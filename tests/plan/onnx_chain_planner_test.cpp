// The paddle2onnx chain's config planned natively: by position, as test_paddle2onnx.sh reads
// it, the key at each position checked; a conversion, then an inference per --use_gpu value.
#include "plan/onnx_chain_planner.h"

#include <gtest/gtest.h>

#include "support/chain_config.h"
#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

// OCR's layout: a device line after the inference script.
const std::string kOnnxConfig =
    "===========================paddle2onnx_params===========================\n"
    "model_name:m\npython:python3\n2onnx: paddle2onnx\n--model_dir:./inference/m/\n"
    "--model_filename:inference.pdmodel\n--params_filename:null\n--save_file:./inference/onnx/model.onnx\n"
    "--opset_version:10\n--enable_onnx_checker:True\ninference:tools/infer.py\n--use_gpu:True|False\n"
    "--det_model_dir:\n--image_dir:./images/\n";

TEST(OnnxChainPlanner, ConvertsThenInfersOncePerUseGpuValueWithTheSavedModel) {
  test::PlannedChain planned;
  test::plan_chain_text(planned, kOnnxConfig, "paddle2onnx", "paddle2onnx_infer");
  ASSERT_TRUE(planned.plan) << planned.plan.error().str();
  const Plan& plan = *planned.plan;
  EXPECT_EQ(plan.results_log, "test_tipc/output/m/paddle2onnx_infer/results_paddle2onnx.log");
  ASSERT_EQ(plan.stages.size(), 3u);
  const Stage& convert = plan.stages[0];
  EXPECT_EQ(convert.kind, StageKind::kConvert);
  // --params_filename:null leaves the runner's gap: no flag in argv, the blanks in the command.
  EXPECT_EQ(convert.argv,
            (std::vector<std::string>{"paddle2onnx", "--model_dir=./inference/m/", "--model_filename=inference.pdmodel",
                                      "--save_file=./inference/onnx/model.onnx", "--opset_version=10",
                                      "--enable_onnx_checker=True"}));
  EXPECT_NE(convert.results_log.command.find("inference.pdmodel   --save_file"), std::string::npos)
      << convert.results_log.command;
  EXPECT_EQ(convert.log, "test_tipc/output/m/paddle2onnx_infer/trans_model.log");
  const Stage& gpu = plan.stages[1];
  const Stage& cpu = plan.stages[2];
  EXPECT_EQ(gpu.id, "infer/paddle2onnx_infer_gpu");
  EXPECT_EQ(gpu.needs.gpus, 1);
  EXPECT_EQ(cpu.id, "infer/paddle2onnx_infer_cpu");
  EXPECT_EQ(cpu.needs.gpus, 0);
  EXPECT_EQ(cpu.deps, std::vector<std::string>{"convert/trans_model"});
  EXPECT_EQ(cpu.argv, (std::vector<std::string>{"python3", "tools/infer.py", "--use_gpu=False", "--image_dir=./images/",
                                                "--det_model_dir=./inference/onnx/model.onnx"}));
  EXPECT_EQ(cpu.log, "test_tipc/output/m/paddle2onnx_infer/paddle2onnx_infer_cpu_fp32.log");
  EXPECT_EQ(cpu.model_dir, "./inference/onnx");
  EXPECT_EQ(render_status_line(plan, cpu, true).value(),
            "\x1b[33m Run successfully with command - m - " + cpu.results_log.command + "!  \x1b[0m");
}

// PaddleSeg's and the model tutorials' layout: the model and image lines follow the script.
TEST(OnnxChainPlanner, PlansTheLayoutWithoutADeviceLineAsOneCpuInference) {
  test::PlannedChain planned;
  test::plan_chain_text(
      planned,
      test::slurp(test::shared_dir() + "/tipc-corpus/configs/models/tutorials/mobilenetv3_prod/Step6/"
                                       "test_tipc/configs/mobilenet_v3_small/paddle2onnx_infer_python.txt"),
      "paddle2onnx", "paddle2onnx_infer");
  ASSERT_TRUE(planned.plan) << planned.plan.error().str();
  ASSERT_EQ(planned.plan->stages.size(), 2u);
  EXPECT_EQ(
      planned.plan->stages[1].argv,
      (std::vector<std::string>{"python3.7", "deploy/onnx_python/infer.py", "--img_path=./lite_data/test/demo.jpg",
                                "--onnx_file=./inference/mobilenet_v3_small_onnx/model.onnx"}));
  // The config names another model than the converter writes: the runner ignores it, we say so.
  ASSERT_EQ(planned.plan->warnings.size(), 1u);
  EXPECT_EQ(planned.plan->warnings[0].key, "--onnx_file");
}

TEST(OnnxChainPlanner, AWrongKeyAtAPositionIsAnErrorNamingFileLineAndKey) {
  test::PlannedChain planned;
  test::plan_chain_text(planned, test::replaced(kOnnxConfig, "--save_file:", "--save_dir:"), "paddle2onnx",
                        "paddle2onnx_infer");
  ASSERT_FALSE(planned.plan);
  EXPECT_EQ(planned.plan.error().diagnostics.front().file, planned.config);
  EXPECT_EQ(test::first_problem(planned),
            "8:--save_dir: the runner reads logical line 8 as '--save_file', found key '--save_dir'");
}

// Positions are logical lines (empty lines do not count); the error names the physical one.
TEST(OnnxChainPlanner, CountsLogicalLinesAndReportsThePhysicalOne) {
  test::PlannedChain planned;
  test::plan_chain_text(planned,
                        test::replaced(test::replaced(kOnnxConfig, "python:", "\n\npython:"), "2onnx:", "convert:"),
                        "paddle2onnx", "paddle2onnx_infer");
  EXPECT_EQ(test::first_problem(planned), "6:convert: the runner reads logical line 4 as '2onnx', found key 'convert'");
}

TEST(OnnxChainPlanner, RefusesADeviceValueTheRunnerSkipsAndAnotherMode) {
  test::PlannedChain device;
  test::plan_chain_text(device, test::replaced(kOnnxConfig, "True|False", "True|xpu"), "paddle2onnx",
                        "paddle2onnx_infer");
  EXPECT_EQ(test::first_problem(device), "12:--use_gpu: 'xpu': the runner knows True, False, gpu and cpu");
  test::PlannedChain mode;
  test::plan_chain_text(mode, kOnnxConfig, "paddle2onnx", "whole_infer");
  ASSERT_FALSE(mode.plan);
  EXPECT_NE(mode.plan.error().str().find("runs 'paddle2onnx_infer' only"), std::string::npos);
}

TEST(OnnxChainPlanner, AConfigThatEndsEarlyNamesTheMissingLine) {
  test::PlannedChain planned;
  test::plan_chain_text(planned, kOnnxConfig.substr(0, kOnnxConfig.find("--opset_version")), "paddle2onnx",
                        "paddle2onnx_infer");
  EXPECT_EQ(test::first_problem(planned),
            "0:: the runner reads logical line 9 as '--opset_version', found the file ends before it");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
