// tipc-run on a GPU machine that the fakes of tests/fake_nvml stand for (issue 40), run for
// real: device lists of UUIDs and MIG devices resolved through the driver and handed to the
// stages as given, names the driver does not show and too few GPUs refused before any stage,
// processes the run did not start named in the stage's log.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/fake_repo_run.h"
#include "support/paths.h"

namespace tipc::test {
namespace {
namespace TIPC_TEST_FILE {

constexpr const char* kGpu0 = "GPU-11111111-2222-3333-4444-555555555555";
constexpr const char* kMig = "MIG-77777777-2222-3333-4444-555555555555";

class GpuMachine : public FakeRepoTest {
 protected:
  void SetUp() override {
    FakeRepoTest::SetUp();
    config_ =
        repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --record rec.txt --print train-done", "0"));
    repo_.write("eval-ok", "");
    state_ = repo_.write("driver-state",
                         fmt::format("gpu {} Fake H100 80GB HBM3\ngpu GPU-66666666-2222-3333-4444-555555555555 "
                                     "Fake A100\nmig GPU-66666666-2222-3333-4444-555555555555 {} 2 0 MIG 3g.20gb\n",
                                     kGpu0, kMig));
  }
  // With the fake NVML library (`nvml`) or the fake nvidia-smi, and these variables.
  RunResult run_on_driver(bool nvml, std::vector<std::string> env, std::vector<std::string> extra = {}) {
    env.push_back("FAKE_NVML_STATE=" + state_);
    if (nvml)
      env.push_back("LD_LIBRARY_PATH=" + std::filesystem::path(fake_nvml_library()).parent_path().string());
    else
      env.push_back("PATH=" + fake_nvidia_smi_dir() + ":" + std::getenv("PATH"));
    std::vector<std::string> args = {"test_tipc/configs/fake.txt", "lite_train_lite_infer"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(repo_.path(), args, env);
  }
  // The CUDA_VISIBLE_DEVICES of each stage that recorded itself.
  std::vector<std::string> devices_seen() const {
    std::vector<std::string> seen;
    std::ifstream in(repo_.path() / "rec.txt");
    for (std::string pid, group, start, end, cvd, rest;
         in >> pid >> group >> start >> end >> cvd && std::getline(in, rest);) {
      seen.push_back(cvd);
    }
    return seen;
  }

  std::string write_exclusive() { return repo_.write("exclusive.yaml", "gpus: {exclusive: true}\n"); }

  std::string state_;
};

TEST_F(GpuMachine, AUuidListRunsTheGpuStagesOnThatDeviceAsTheIndexWould) {
  const RunResult r = run_on_driver(true, {std::string("CUDA_VISIBLE_DEVICES=") + kGpu0});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto seen = devices_seen();
  const auto on_gpu = std::count(seen.begin(), seen.end(), kGpu0);
  EXPECT_GE(on_gpu, 3) << "the train, the eval and the GPU inference at least: "
                       << fmt::format("{}", fmt::join(seen, " "));
  EXPECT_EQ(std::count(seen.begin(), seen.end(), "unset"), static_cast<long>(seen.size()) - on_gpu);
  std::filesystem::remove(repo_.path() / "rec.txt");
  const RunResult by_index = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"});
  ASSERT_EQ(by_index.exit_code, 0) << by_index.out << by_index.err;
  const auto seen_by_index = devices_seen();
  EXPECT_EQ(seen_by_index.size(), seen.size());
  EXPECT_EQ(std::count(seen_by_index.begin(), seen_by_index.end(), "0"), on_gpu);
}

TEST_F(GpuMachine, AMigDeviceThroughNvidiaSmiIsAGpuForTheStages) {
  const RunResult r = run_on_driver(false, {std::string("CUDA_VISIBLE_DEVICES=") + kMig});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto seen = devices_seen();
  EXPECT_GE(std::count(seen.begin(), seen.end(), kMig), 3) << fmt::format("{}", fmt::join(seen, " "));
}

TEST_F(GpuMachine, ANameTheDriverDoesNotShowIsExit2WithNothingRun) {
  const RunResult r = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=GPU-does-not-exist"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("CUDA_VISIBLE_DEVICES: no device has the UUID 'GPU-does-not-exist'; the driver shows GPUs 0-1 "
                       "and 1 MIG device (NVML)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(devices_seen().empty());
  const RunResult no_driver = run_tipc(repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer"},
                                       {"CUDA_VISIBLE_DEVICES=GPU-9f8e", "PATH=/usr/bin:/bin"});
  EXPECT_EQ(no_driver.exit_code, 2) << no_driver.out << no_driver.err;
  EXPECT_NE(no_driver.err.find("cannot resolve 'GPU-9f8e': no NVIDIA driver answered"), std::string::npos)
      << no_driver.err;
}

TEST_F(GpuMachine, FewerGpusThanExpectedIsExit2BeforeAnyStage) {
  const RunResult r = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"}, {"--expect-gpus", "2"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--expect-gpus 2: found 1 usable GPU (CUDA_VISIBLE_DEVICES)"), std::string::npos) << r.err;
  EXPECT_TRUE(devices_seen().empty());
  EXPECT_FALSE(std::filesystem::exists(output() / "norm_train_gpus_0_autocast_null.log")) << "no stage started";
  EXPECT_EQ(run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"}, {"--expect-gpus", "1"}).exit_code, 0);
}

TEST_F(GpuMachine, AProcessTheRunDidNotStartIsNamedInTheStagesLog) {
  std::ofstream(state_, std::ios::app) << fmt::format("process {} {} 2048\n", kGpu0, getpid());
  const RunResult r = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string log = slurp((output() / "norm_train_gpus_0_autocast_null.log").string());
  EXPECT_EQ(log.rfind(fmt::format("tipc-run: GPU 0: pid {} (", getpid()), 0), 0u) << log;
  EXPECT_NE(log.find("holds 2048 MiB; this run did not start it\n"), std::string::npos) << log;
  const RunResult exclusive = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"}, {"--settings", write_exclusive()});
  EXPECT_EQ(exclusive.exit_code, 1) << exclusive.out << exclusive.err;
  EXPECT_NE(exclusive.out.find("its GPUs are not exclusive"), std::string::npos) << exclusive.out;
}

// Run 1 on a GPU holding 3000 MiB, run 2 on one holding 6000 MiB: the figures of the fake
// library are in report.json, junit.xml and the run history, and compare calls the grown peak
// a regression.
TEST_F(GpuMachine, TheDriversFiguresReachTheReportsTheHistoryAndTheGate) {
  auto held = [&](int mib) {
    std::ofstream(state_, std::ios::app) << fmt::format("memory {} {}\nsample {} 87 250 4\n", kGpu0, mib, kGpu0);
  };
  held(3000);
  const RunResult first = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const std::string json = slurp((output() / "report.json").string());
  EXPECT_NE(json.find("\"memory_peak_mib\": 3000"), std::string::npos) << json.substr(0, 3000);
  EXPECT_NE(json.find("\"utilization_mean_percent\": 87"), std::string::npos);
  EXPECT_NE(json.find("\"uuid\": \"" + std::string(kGpu0) + "\""), std::string::npos) << "gpu_devices";
  const std::string junit = slurp((output() / "junit.xml").string());
  EXPECT_NE(junit.find("name=\"gpu_memory_peak_mib\" value=\"3000\""), std::string::npos) << junit.substr(0, 3000);
  EXPECT_NE(junit.find("name=\"gpu_throttle_reasons\" value=\"sw_power_cap\""), std::string::npos);
  held(6000);
  const RunResult second = run_on_driver(true, {"CUDA_VISIBLE_DEVICES=0"});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  const RunResult history = run_tipc(repo_.path(), {"history", "gpu:memory_peak_mib", "--stage", "*train*"});
  ASSERT_EQ(history.exit_code, 0) << history.out << history.err;
  EXPECT_NE(history.out.find("3000"), std::string::npos) << history.out;
  EXPECT_NE(history.out.find("6000"), std::string::npos) << history.out;
  const RunResult compare = run_tipc(repo_.path(), {"compare", "1", "2"});
  EXPECT_EQ(compare.exit_code, 6) << compare.out << compare.err;
  const auto line = compare.out.find("gpu:memory_peak_mib");
  ASSERT_NE(line, std::string::npos) << compare.out;
  EXPECT_NE(compare.out.substr(line, 400).find("3000"), std::string::npos) << compare.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::test
