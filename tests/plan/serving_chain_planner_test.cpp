// The Python serving chain's config planned natively: by position, as
// test_serving_infer_python.sh reads it; a conversion, then per device value a service ready on
// the port its arguments name and a client depending on it.
#include "plan/serving_chain_planner.h"

#include <gtest/gtest.h>

#include "support/chain_config.h"
#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

const std::string kServingConfig =
    "===========================serving_params===========================\n"
    "model_name:m\npython:python3\ntrans_model:-m paddle_serving_client.convert\n--dirname:./inference/m/\n"
    "--model_filename:inference.pdmodel\n--params_filename:inference.pdiparams\n--serving_server:./srv/\n"
    "--serving_client:./cli/\nserving_dir:./deploy/serving\nweb_service:web_service.py --port=9393\n"
    "--use_gpu:0|null\npipline:pipeline_http_client.py\n--image_dir:../../images/\n";

TEST(ServingChainPlanner, ConvertsThenServesPerDeviceValueWithItsClientAfterTheServer) {
  test::PlannedChain planned;
  test::plan_chain_text(planned, kServingConfig, "serving_infer_python", "serving_infer");
  ASSERT_TRUE(planned.plan) << planned.plan.error().str();
  const Plan& plan = *planned.plan;
  EXPECT_EQ(plan.results_log, "test_tipc/output/m/serving_infer/results_serving.log");
  ASSERT_EQ(plan.stages.size(), 5u);
  EXPECT_EQ(plan.stages[0].argv,
            (std::vector<std::string>{"python3", "-m", "paddle_serving_client.convert", "--dirname=./inference/m/",
                                      "--model_filename=inference.pdmodel", "--params_filename=inference.pdiparams",
                                      "--serving_server=./srv/", "--serving_client=./cli/"}));
  const Stage& gpu_server = plan.stages[1];
  EXPECT_EQ(gpu_server.id, "service/python_server_gpu");
  EXPECT_EQ(gpu_server.kind, StageKind::kService);
  EXPECT_EQ(gpu_server.needs.gpus, 1);
  EXPECT_EQ(gpu_server.argv, (std::vector<std::string>{"python3", "web_service.py", "--port=9393", "--use_gpu=0"}));
  const Stage& cpu_server = plan.stages[3];
  const Stage& cpu_client = plan.stages[4];
  // The runner's `--use_gpu=''` for null: an empty value in argv, its quotes in the command.
  EXPECT_EQ(cpu_server.argv.back(), "--use_gpu=");
  EXPECT_NE(cpu_server.results_log.command.find("--use_gpu=''"), std::string::npos);
  EXPECT_EQ(cpu_server.cwd, "./deploy/serving");
  EXPECT_EQ(cpu_server.deps, std::vector<std::string>{"convert/trans_model"});
  ASSERT_TRUE(cpu_server.service.has_value());
  EXPECT_EQ(cpu_server.service->port, 9393);
  EXPECT_EQ(cpu_server.needs.gpus, 0);
  EXPECT_EQ(cpu_client.kind, StageKind::kInfer);
  EXPECT_EQ(cpu_client.deps, std::vector<std::string>{"service/python_server_cpu"});
  EXPECT_EQ(cpu_client.cwd, "./deploy/serving");
  EXPECT_EQ(cpu_client.argv,
            (std::vector<std::string>{"python3", "pipeline_http_client.py", "--image_dir=../../images/"}));
  EXPECT_EQ(cpu_client.log, "test_tipc/output/m/serving_infer/python_client_cpu_fp32.log");
}

TEST(ServingChainPlanner, WithoutTransModelTheServerStartsFirstAndWithoutAPortItIsReadyAtOnce) {
  test::PlannedChain planned;
  test::plan_chain_text(
      planned,
      test::replaced(test::replaced(kServingConfig, "-m paddle_serving_client.convert", "null"), " --port=9393", ""),
      "serving_infer_python", "serving_infer");
  ASSERT_TRUE(planned.plan) << planned.plan.error().str();
  ASSERT_EQ(planned.plan->stages.size(), 4u);
  EXPECT_TRUE(planned.plan->stages[0].deps.empty());
  EXPECT_EQ(planned.plan->stages[0].service->port, std::nullopt);
}

TEST(ServingChainPlanner, PlansTheModelTutorialsTemplateOfTheCorpus) {
  test::PlannedChain planned;
  test::plan_chain_text(
      planned,
      test::slurp(test::shared_dir() + "/tipc-corpus/configs/models/tutorials/mobilenetv3_prod/Step6/"
                                       "test_tipc/configs/mobilenet_v3_small/serving_infer_python.txt"),
      "serving_infer_python", "serving_infer");
  ASSERT_TRUE(planned.plan) << planned.plan.error().str();
  ASSERT_EQ(planned.plan->stages.size(), 5u);
  // `--opt op.imagenet.local_service_conf.devices:"0"|null`: the key's words, the value unquoted.
  EXPECT_EQ(planned.plan->stages[1].argv,
            (std::vector<std::string>{"python3.7", "web_service.py", "--config=config.yml", "--opt",
                                      "op.imagenet.local_service_conf.devices=0"}));
}

TEST(ServingChainPlanner, AWrongKeyAtAPositionIsAnErrorNamingFileLineAndKey) {
  test::PlannedChain planned;
  test::plan_chain_text(planned, test::replaced(kServingConfig, "serving_dir:", "service_dir:"), "serving_infer_python",
                        "serving_infer");
  ASSERT_FALSE(planned.plan);
  EXPECT_EQ(planned.plan.error().diagnostics.front().file, planned.config);
  EXPECT_EQ(test::first_problem(planned),
            "10:service_dir: the runner reads logical line 10 as 'serving_dir', found key 'service_dir'");
}

TEST(ServingChainPlanner, RefusesABadPortAndAMissingServer) {
  test::PlannedChain port;
  test::plan_chain_text(port, test::replaced(kServingConfig, "--port=9393", "--port=http"), "serving_infer_python",
                        "serving_infer");
  EXPECT_EQ(test::first_problem(port), "11:web_service: --port 'http': expected a port number (1-65535)");
  test::PlannedChain server;
  test::plan_chain_text(server, test::replaced(kServingConfig, "web_service.py --port=9393", "null"),
                        "serving_infer_python", "serving_infer");
  EXPECT_EQ(test::first_problem(server), "11:web_service: a program to run is required here (it is empty or null)");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
