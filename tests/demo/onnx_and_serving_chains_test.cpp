// The demo's ONNX and serving chains end to end on the CPU, natively planned from their
// positional configs (the demo has no bash runner): the pretrained model converted, run
// through OpenCV DNN or served over HTTP, and held to the ground truth; and the serving
// chain interrupted at random times 100 times, each time leaving no server and no bound port.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "support/demo_repo.h"
#include "support/run_binary.h"
#include "support/service_processes.h"

namespace tipc::demo {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

const char* const kOnnxConfig = "test_tipc/configs/alexnet_paddle2onnx.txt";
const char* const kServingConfig = "test_tipc/configs/alexnet_serving.txt";
const char* const kConfigPort = "18093";

// Replaces every `from` in the file by `to`.
void edit_file(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = test::slurp(file);
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  std::ofstream(file, std::ios::trunc) << text;
}

class DemoChains : public ::testing::Test {
 protected:
  void SetUp() override {
    test::require_demo_python("the demo chains");
    if (IsSkipped() || HasFatalFailure()) return;
    test::copy_demo_parts(repo_, {kOnnxConfig, kServingConfig});
    // A port of its own: tests run in parallel, and the config's may be taken.
    edit_file(repo_.path() / kServingConfig, kConfigPort, std::to_string(port_));
  }
  fs::path out(const std::string& mode) const { return repo_.path() / "test_tipc/output/alexnet" / mode; }
  void expect_nothing_left_behind() const {
    EXPECT_EQ(test::processes_inside(repo_.path()), std::vector<int>{}) << "processes of the run still alive";
    EXPECT_TRUE(test::port_is_free(port_)) << "port " << port_ << " still bound";
  }

  test::TempDir repo_;
  int port_ = test::free_port();
};

TEST_F(DemoChains, OnnxChainConvertsAndInfersThroughOpenCvDnnMatchingTheGroundTruth) {
  const auto r = test::run_tipc(repo_.path(), {kOnnxConfig, "paddle2onnx_infer", "--gpus", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("3 passed, 0 failed, 0 timed out, 0 unsupported, 0 skipped"), std::string::npos) << r.out;
  const std::string check =
      test::slurp(out("paddle2onnx_infer") / "paddle2onnx_infer_cpu_fp32_check_onnx_inference_vs_ground_truth.log");
  EXPECT_NE(check.find("1 passed, 0 failed, 0 skipped (atol 1e-05, rtol 1e-05)"), std::string::npos) << check;
  EXPECT_TRUE(fs::exists(out("paddle2onnx_infer") / "onnx/model.onnx"));
  const std::string status = test::slurp(out("paddle2onnx_infer") / "results_paddle2onnx.log");
  EXPECT_NE(status.find("Run successfully with command - alexnet - /usr/bin/python3 models/alexnet/infer_onnx.py "
                        "--use_gpu=False"),
            std::string::npos)
      << status;
}

TEST_F(DemoChains, ServingChainServesTheTorchScriptModelToAClientThatMatchesTheGroundTruth) {
  const auto r = test::run_tipc(repo_.path(), {kServingConfig, "serving_infer"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 passed, 0 failed, 0 timed out, 0 unsupported, 0 skipped"), std::string::npos) << r.out;
  const std::string client = test::slurp(out("serving_infer") / "python_client_cpu_fp32.log");
  EXPECT_NE(client.find("24 images, 24 in the ground truth, 0 mismatched or missing"), std::string::npos) << client;
  EXPECT_NE(test::slurp(out("serving_infer") / "python_server_cpu.log").find("POST /predict"), std::string::npos);
  expect_nothing_left_behind();
}

// The client's own check can fail: a ground truth one score off fails the client (the
// settings' check after it is skipped), while the server still passes and is gone afterwards.
TEST_F(DemoChains, ServingClientFailsOnAWrongGroundTruthAndTheServerIsStillStopped) {
  edit_file(repo_.path() / "test_tipc/results/python_alexnet_results_fp32.txt", "[0, 0.584008]", "[0, 0.584108]");
  const auto r = test::run_tipc(repo_.path(), {kServingConfig, "serving_infer"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("2 passed, 1 failed, 0 timed out, 0 unsupported, 1 skipped"), std::string::npos) << r.out;
  EXPECT_NE(test::slurp(out("serving_infer") / "python_client_cpu_fp32.log").find("mismatch: "), std::string::npos);
  expect_nothing_left_behind();
}

// SIGINT at a uniformly random time within the first 2.5 s of a serving run (the server
// starting, loading torch, serving, the client running, the server being stopped), 100
// times: after each, tipc-run has exited and left no process and no bound port.
TEST_F(DemoChains, ServingChainSurvivesAHundredInterruptsLeavingNothingBehind) {
  ASSERT_EQ(test::run_tipc(repo_.path(), {kServingConfig, "serving_infer"}).exit_code, 0);  // converts the model
  std::mt19937 random(17);
  std::uniform_int_distribution<int> delay_ms(0, 2500);
  int interrupted = 0, finished = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int trial = 0; trial < 100; ++trial) {
    // The server and its client only (-k): the conversion ran above.
    const pid_t pid = test::start_tipc(repo_.path(), {kServingConfig, "serving_infer", "-k", "python_"});
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(random)));
    kill(pid, SIGINT);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const bool clean = WIFEXITED(status) && (WEXITSTATUS(status) == 130 || WEXITSTATUS(status) == 0);
    const bool before_handler = WIFSIGNALED(status) && WTERMSIG(status) == SIGINT;  // tipc-run barely started
    ASSERT_TRUE(clean || before_handler) << "trial " << trial << ": status " << status;
    (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? finished : interrupted)++;
    ASSERT_EQ(test::processes_inside(repo_.path()), std::vector<int>{}) << "trial " << trial;
    ASSERT_TRUE(test::port_is_free(port_)) << "trial " << trial << ": port " << port_ << " still bound";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("interrupted", interrupted);
  RecordProperty("finished_before_the_signal", finished);
  std::cout << "100 trials in " << seconds << " s: " << interrupted << " interrupted, " << finished
            << " finished before the signal; no process and no bound port left after any\n";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::demo
