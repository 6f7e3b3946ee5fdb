// The demo's C++ chain (cpp_infer), traced from its own runner test_tipc/test_inference_cpp.sh:
// the plan builds with CMake in models/alexnet/cpp/build and runs the built program from the
// repository root, each inference followed by its ground-truth check; and, end to end from a
// fresh copy, the runner's housekeeping replayed, the program built against Debian's
// libtorch-dev, its scores held to the ground truth at 1e-5, also with PyTorch's vector
// kernels off (ATEN_CPU_CAPABILITY=default).
#include <glob.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/demo_repo.h"
#include "support/run_binary.h"
#include "trace/sandbox.h"

namespace tipc::demo {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

const char* const kCppConfig = "test_tipc/configs/alexnet_cpp.txt";
const char* const kCppRunner = "test_tipc/test_inference_cpp.sh";
const char* const kProgram = "./models/alexnet/cpp/build/alexnet_infer";
const char* const kCheck = "/check/cpp_inference_vs_ground_truth";

bool libtorch_available() {
  glob_t found{};
  const bool any = ::glob("/usr/lib/*/cmake/Torch/TorchConfig.cmake", 0, nullptr, &found) == 0;
  globfree(&found);
  return any;
}

// Stage id -> its JSON line, from `--dry-run --format jsonl`.
std::map<std::string, nlohmann::json> planned_stages(const std::string& jsonl) {
  std::map<std::string, nlohmann::json> stages;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '{') continue;
    const auto stage = nlohmann::json::parse(line);
    if (stage.contains("id")) stages[stage["id"]] = stage;
  }
  return stages;
}

class DemoCppChain : public ::testing::Test {
 protected:
  void SetUp() override {
    // The runner is traced, and the config names /usr/bin/python3: only bubblewrap can put
    // the trace's stand-in there.
    const bool bwrap = static_cast<bool>(trace::choose_sandbox(trace::Isolation::bwrap));
    if (!bwrap || !libtorch_available() || !test::demo_python_available()) {
      const char* what = "bubblewrap, Debian's libtorch-dev or /usr/bin/python3 with torch and cv2";
      if (std::getenv("CI")) FAIL() << "CI must run the demo's C++ chain: it lacks " << what;
      GTEST_SKIP() << "DEMO C++ CHAIN NOT RUN: it needs " << what << " (scripts/install-deps.sh build demo)";
    }
    test::copy_demo_parts(repo_, {kCppConfig, kCppRunner});
  }
  fs::path out() const { return repo_.path() / "test_tipc/output/alexnet/cpp_infer"; }

  test::TempDir repo_;
};

TEST_F(DemoCppChain, PlansTheBuildInItsBuildDirectoryAndEachInferenceFromTheRootWithItsGroundTruthCheck) {
  const auto r = test::run_tipc(repo_.path(), {kCppConfig, "cpp_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto stages = planned_stages(r.out);
  for (const char* build : {"cpp_infer/other/build_cmake", "cpp_infer/other/build_make"}) {
    ASSERT_TRUE(stages.count(build)) << build << " not planned:\n" << r.out;
    EXPECT_EQ(stages.at(build)["cwd"], "models/alexnet/cpp/build") << build;
  }
  EXPECT_EQ(stages.at("cpp_infer/other/build_cmake")["argv"], nlohmann::json({"cmake", ".."}));
  ASSERT_TRUE(stages.count("cpp_infer/export")) << r.out;
  EXPECT_EQ(stages.at("cpp_infer/export")["cwd"], ".");
  int inferences = 0;
  for (const auto& [id, stage] : stages) {
    if (stage["kind"] != "infer") continue;
    ++inferences;
    EXPECT_EQ(stage["cwd"], ".") << id;
    EXPECT_EQ(stage["argv"][0], kProgram) << id;
    EXPECT_TRUE(stage["benchmark"]) << id;
    ASSERT_TRUE(stages.count(id + kCheck)) << id << " has no ground-truth check";
    const std::string check = stages.at(id + kCheck)["command"];
    EXPECT_NE(check.find("compare-results"), std::string::npos) << check;
    EXPECT_NE(check.find("--atol 1.0e-5 --rtol 1.0e-5"), std::string::npos) << check;
  }
  EXPECT_EQ(inferences, 4) << "threads 1|2 x batch sizes 1|4:\n" << r.out;
}

// Needs the runner's housekeeping replayed (its `rm -rf build; mkdir -p build` before cmake).
TEST_F(DemoCppChain, BuildsWithCMakeAndInfersMatchingTheGroundTruthFromAFreshCopy) {
  const auto r = test::run_tipc(repo_.path(), {kCppConfig, "cpp_infer", "--gpus", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" 0 failed, 0 timed out, 0 unsupported, 0 skipped, 0 unresolved"), std::string::npos) << r.out;
  int checks = 0;
  for (const auto& entry : fs::directory_iterator(out())) {
    if (!entry.path().filename().string().ends_with("_check_cpp_inference_vs_ground_truth.log")) continue;
    ++checks;
    const std::string log = test::slurp(entry.path());
    EXPECT_NE(log.find("1 passed, 0 failed, 0 skipped (atol 1e-05, rtol 1e-05)"), std::string::npos) << log;
  }
  EXPECT_EQ(checks, 4) << "one ground-truth check per inference:\n" << r.out;
  EXPECT_TRUE(fs::is_regular_file(repo_.path() / kProgram)) << "built in models/alexnet/cpp/build";
  EXPECT_FALSE(fs::exists(repo_.path() / "CMakeCache.txt")) << "cmake ran in the repository root";
  const std::string status = test::slurp(out() / "results_cpp.log");
  EXPECT_EQ(status.find("Run failed"), std::string::npos) << status;
  EXPECT_NE(status.find("Run successfully with command - alexnet - cmake .."), std::string::npos) << status;

  // The same program with PyTorch's dispatch forced to plain C++ kernels: the same scores.
  const std::string log = (out() / "cpp_infer_aten_default_precision_fp32.log").string();
  const std::string run = "cd " + test::shell_quote(repo_.path()) + " && ATEN_CPU_CAPABILITY=default " + kProgram +
                          " --model_dir=test_tipc/output/alexnet/cpp_infer/model --image_dir=./lite_data/alexnet/test"
                          " --batch_size=4 > " +
                          test::shell_quote(log) + " 2>&1";
  ASSERT_EQ(std::system(run.c_str()), 0) << test::slurp(log);
  const auto compared =
      test::run_tipc(repo_.path(), {"compare-results", "--gt", "test_tipc/results/python_alexnet_results_*.txt",
                                    "--log", log, "--atol", "1e-5", "--rtol", "1e-5"});
  EXPECT_EQ(compared.exit_code, 0) << compared.out << compared.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::demo
