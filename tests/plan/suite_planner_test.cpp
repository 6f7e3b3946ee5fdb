// Who plans each config of a MODE (plan/suite_planner.h, issue 15 and 39): without argv,
// plan_configs on a plain request; and through the command line, a folder whose runner fails
// for one config, --plan-from, the traced plan on a real corpus runner, the cross-check's
// warnings and --strict.
#include "plan/suite_planner.h"

#include <cstdlib>
#include <deque>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using nlohmann::json;

// Without argv or the binary: a plain request over the demo's configs. The ONNX and serving
// configs have no runner beside them (their chains' native planners plan them), the train
// config goes to the dialect, and nothing is traced.
class PlanConfigs : public ::testing::Test {
 protected:
  void SetUp() override {
    dialect_ = dialect::load_dialect(test::dialect_dir(), "paddleocr").value();
    request_.options.mode = "paddle2onnx_infer";
    request_.options.repo_root = repo_.path().string();
    request_.chains = &test::shipped_chains();
    request_.dialect = &dialect_;
    request_.dialect_sure = true;
    request_.trace.cache_dir = cache_.path().string();
  }
  const config::ConfigText& config(const std::string& name, const std::string& text) {
    texts_.push_back(config::read_config_text(repo_.write("test_tipc/configs/" + name, text)).value());
    return texts_.back();
  }
  static std::string demo(const std::string& name) {
    return test::slurp(test::source_dir() + "/test_tipc/configs/" + name);
  }

  test::TempDir repo_, cache_;
  dialect::Dialect dialect_;
  SuitePlanRequest request_;
  std::deque<config::ConfigText> texts_;
};

TEST_F(PlanConfigs, AConfigWithoutItsRunnerGoesToItsChainsPlannerAndNothingIsTraced) {
  const auto& onnx = config("alexnet_paddle2onnx.txt", demo("alexnet_paddle2onnx.txt"));
  const auto planned = plan_configs({&onnx}, request_);
  ASSERT_EQ(planned.plans.size(), 1u);
  ASSERT_TRUE(planned.plans[0]) << planned.plans[0].error().str();
  EXPECT_EQ(planned.plans[0]->dialect, "paddle2onnx");
  EXPECT_EQ(planned.traced, std::vector<bool>{false});
  EXPECT_TRUE(planned.runners.empty());

  request_.options.mode = "lite_train_lite_infer";
  const auto& train = config("alexnet.txt", demo("alexnet.txt"));
  const auto by_dialect = plan_configs({&train}, request_);
  ASSERT_TRUE(by_dialect.plans[0]) << by_dialect.plans[0].error().str();
  EXPECT_EQ(by_dialect.plans[0]->dialect, "paddleocr");
  request_.dialect = nullptr;
  request_.dialect_error = Error::plain("no marker decides the dialect");
  const auto without = plan_configs({&train}, request_);
  ASSERT_FALSE(without.plans[0]);
  EXPECT_EQ(without.plans[0].error().str(), "no marker decides the dialect");
}

TEST_F(PlanConfigs, TheRunnerBesideAConfigIsTracedAndRunnerOnlyRefusesOneWithout) {
  repo_.write("test_tipc/test_train_inference_python.sh",
              "cmd=\"python3 train.py --config $1 --mode $2\"\neval $cmd\n");
  request_.options.mode = "lite_train_lite_infer";
  const auto& traced = config("m/train.txt",
                              "===========================train_params===========================\n"
                              "model_name:m\n");
  const auto& onnx = config("alexnet_paddle2onnx.txt", demo("alexnet_paddle2onnx.txt"));
  request_.source = PlanSource::kRunner;
  const auto planned = plan_configs({&traced, &onnx}, request_);
  ASSERT_TRUE(planned.plans[0]) << planned.plans[0].error().str();
  EXPECT_EQ(planned.traced, (std::vector<bool>{true, false}));
  EXPECT_EQ(planned.runners, std::vector<std::string>{"test_tipc/test_train_inference_python.sh"});
  const auto& stage = planned.plans[0]->stages.back();
  EXPECT_EQ(stage.argv, (std::vector<std::string>{"python3", "train.py", "--config", "test_tipc/configs/m/train.txt",
                                                  "--mode", "lite_train_lite_infer"}));
  ASSERT_FALSE(planned.plans[1]);
  EXPECT_NE(planned.plans[1].error().str().find("--plan-from runner: its chain's runner is not in the test_tipc/"),
            std::string::npos)
      << planned.plans[1].error().str();
}

// A folder keeps going: a config whose runner fails is invalid with the runner's stderr,
// one with NUL bytes is invalid with its reason, and the other one is traced and planned.
TEST(TracedSuite, AFailingTraceOrAnUnreadableConfigLeavesOnlyThatConfigOut) {
  test::TempDir repo, cache;
  setenv("TIPC_TRACE_CACHE", cache.path().c_str(), 1);
  repo.write("test_tipc/test_train_inference_python.sh",
             "case \"$1\" in *bad*) echo 'cannot plan this one' >&2; exit 3;; esac\n"
             "cmd=\"python3 train.py --config $1\"\neval $cmd\n");
  const std::string header = "===========================train_params===========================\nmodel_name:m\n";
  repo.write("test_tipc/configs/good.txt", header);
  repo.write("test_tipc/configs/bad.txt", header);
  repo.write("test_tipc/configs/nul.txt", header + std::string("python:py\0thon\n", 15));
  const auto run =
      test::run_tipc(repo.path(), {"test_tipc/configs", "lite_train_lite_infer", "--dry-run", "--plan-from", "runner"});
  unsetenv("TIPC_TRACE_CACHE");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("cannot plan this one"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("tipc-run: error: test_tipc/configs/bad.txt: "), std::string::npos)
      << "the runner's failure names the config first: " << run.err;
  EXPECT_NE(run.err.find("nul.txt"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("2 of 3 configs invalid"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("train.py --config test_tipc/configs/good.txt"), std::string::npos) << run.out;
}

// A PaddleOCR checkout as the recording saw it (tipc-corpus README §4): the runner's
// directory files and one config, and no marker directory, so no dialect decides.
class TracedRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(corpus_)) GTEST_SKIP() << "TRACED RUN NOT CHECKED: " << corpus_ << " is missing";
    for (const auto& entry : fs::directory_iterator(corpus_ / "runners/PaddleOCR/test_tipc")) {
      if (entry.is_regular_file())
        repo_.write("test_tipc/" + entry.path().filename().string(), test::slurp(entry.path()));
    }
    setenv("TIPC_TRACE_CACHE", cache_.path().c_str(), 1);
  }
  void TearDown() override { unsetenv("TIPC_TRACE_CACHE"); }

  std::string add_config(const std::string& model, const std::string& file = "train_infer_python.txt") {
    const std::string path = "test_tipc/configs/" + model + "/" + file;
    repo_.write(path, test::slurp(corpus_ / "configs/PaddleOCR" / path));
    return path;
  }
  // The stages of a --dry-run --format jsonl output.
  static std::vector<json> stages_of(const std::string& jsonl) {
    std::vector<json> stages;
    for (const auto& line : test::lines_of(jsonl)) {
      if (!line.empty()) stages.push_back(json::parse(line));
    }
    return stages;
  }
  std::vector<std::string> golden_argv(const std::string& id) {
    std::vector<std::string> calls;
    for (const auto& line : test::lines_of(test::slurp(corpus_ / "golden/PaddleOCR" / (id + ".argv.jsonl")))) {
      if (line.empty()) continue;
      const json call = json::parse(line);
      calls.push_back(call["argv0"].get<std::string>() + " " + call["argv"].dump() + " in " +
                      call["cwd"].get<std::string>());
    }
    return calls;
  }
  static std::vector<std::string> planned_argv(const std::string& jsonl) {
    std::vector<std::string> calls;
    for (const auto& line : test::lines_of(jsonl)) {
      if (line.empty()) continue;
      const json stage = json::parse(line);
      auto argv = stage["argv"].get<std::vector<std::string>>();
      const std::string program = argv.front();
      argv.erase(argv.begin());
      calls.push_back(program + " " + json(argv).dump() + " in " + stage["cwd"].get<std::string>());
    }
    return calls;
  }

  fs::path corpus_ = fs::path(test::shared_dir()) / "tipc-corpus";
  test::TempDir repo_, cache_;
};

TEST_F(TracedRun, ByDefaultTheRunnerNextToTheConfigPlansItsExactCommands) {
  const std::string config = add_config("ch_PP-OCRv3_det");
  const auto traced = test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_NE(
      traced.err.find("1 config planned by tracing the repository's runner: test_tipc/test_train_inference_python.sh"),
      std::string::npos)
      << traced.err;
  EXPECT_EQ(planned_argv(traced.out),
            golden_argv("PaddleOCR__test_tipc__configs__ch_PP-OCRv3_det__train_infer_python"));
  ASSERT_FALSE(fs::is_empty(cache_.path())) << "the trace is kept";
  const auto again = test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--format", "jsonl"});
  EXPECT_EQ(again.out, traced.out) << "the cached trace plans the same";

  EXPECT_EQ(traced.err.find("dialect template"), std::string::npos)
      << "the runner alone is a weak marker: the traced plan does not lean on the dialect it suggests\n"
      << traced.err;

  // Planned natively, the only dialect the runner suggests is the template's, whose layout
  // this config does not have.
  const auto native = test::run_tipc(
      repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--format", "jsonl", "--plan-from", "dialect"});
  EXPECT_EQ(native.exit_code, 2) << native.err;
  EXPECT_EQ(native.err.find("tracing"), std::string::npos) << native.err;
  EXPECT_NE(native.err.find("dialect template"), std::string::npos) << native.err;
  EXPECT_NE(native.err.find("error: " + config + ":"), std::string::npos) << native.err;
}

TEST_F(TracedRun, PlanFromRunnerWithoutARunnerIsAnErrorNamingTheConfig) {
  const std::string config = add_config("ch_PP-OCRv3_det");
  fs::remove(repo_.path() / "test_tipc/test_train_inference_python.sh");
  const auto run =
      test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--plan-from", "runner"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(config), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--runner"), std::string::npos) << run.err;
}

// The config lacks its pact_train line (D4 in docs/reference-runner.md): the runner exports `python False ...` in
// whole_infer, silently; tipc-run plans it as the runner would and says where it comes from.
TEST_F(TracedRun, TheCrossCheckWarnsWithFileAndLineAndStrictMakesItAnError) {
  const std::string config = add_config("ch_PP-OCRv4_server_rec_ampO2_ultra");
  const auto warned = test::run_tipc(repo_.path(), {config, "whole_infer", "--dry-run"});
  ASSERT_EQ(warned.exit_code, 0) << warned.err;
  EXPECT_NE(warned.err.find("tipc-run: warning: " + config + ":38"), std::string::npos) << warned.err;
  const auto strict = test::run_tipc(repo_.path(), {config, "whole_infer", "--dry-run", "--strict"});
  EXPECT_EQ(strict.exit_code, 2) << strict.err;
  EXPECT_NE(strict.err.find("tipc-run: error: " + config + ":38"), std::string::npos) << strict.err;
}

// Issue 17: configs/chains.yaml picks the runner of the config's chain from its header.
TEST_F(TracedRun, AConfigOfTheOnnxChainIsTracedThroughTestPaddle2onnx) {
  const std::string config =
      add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_paddle2onnx_python_linux_cpu.txt");
  const auto run = test::run_tipc(repo_.path(), {config, "paddle2onnx_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("test_tipc/test_paddle2onnx.sh"), std::string::npos) << run.err;
  const auto stages = stages_of(run.out);
  ASSERT_GE(stages.size(), 2u) << run.out;
  EXPECT_EQ(stages[0]["kind"], "convert") << stages[0].dump();
  EXPECT_EQ(stages[0]["argv"][0], "paddle2onnx") << stages[0].dump();
  EXPECT_EQ(stages.back()["kind"], "infer") << stages.back().dump();
  EXPECT_EQ(stages.back()["deps"].size(), 1u) << "the ONNX inference follows the conversion: " << run.out;
}

// Issue 25: a corpus runner under another name is found by what it is, and plans the same.
TEST_F(TracedRun, ARenamedCopyOfTheOnnxRunnerIsFoundByItsContent) {
  const std::string config =
      add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_paddle2onnx_python_linux_cpu.txt");
  const std::vector<std::string> args = {config, "paddle2onnx_infer", "--dry-run", "--format", "jsonl"};
  const auto named = test::run_tipc(repo_.path(), args);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  fs::rename(repo_.path() / "test_tipc/test_paddle2onnx.sh", repo_.path() / "test_tipc/run_onnx.sh");
  const auto renamed = test::run_tipc(repo_.path(), args);
  ASSERT_EQ(renamed.exit_code, 0) << renamed.err;
  EXPECT_NE(renamed.err.find("tracing the repository's runner: test_tipc/run_onnx.sh"), std::string::npos)
      << renamed.err;
  EXPECT_EQ(renamed.out, named.out);
}

// The C++ chain runs the demo it builds: its path becomes the stage's program, and the
// build's cmake and make are stages before it.
TEST_F(TracedRun, TheCppChainsBuiltBinaryIsTracedAtItsPath) {
  fs::create_directories(repo_.path() / "deploy/cpp_infer");
  const std::string config = add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_infer_cpp_linux_gpu_cpu.txt");
  const auto run = test::run_tipc(repo_.path(), {config, "cpp_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto stages = stages_of(run.out);
  std::vector<std::string> programs;
  for (const auto& stage : stages) programs.push_back(stage["argv"][0]);
  EXPECT_NE(std::find(programs.begin(), programs.end(), "cmake"), programs.end()) << run.out;
  const auto demo = std::find(programs.begin(), programs.end(), "./deploy/cpp_infer/build/ppocr");
  ASSERT_NE(demo, programs.end()) << run.out;
  EXPECT_EQ(stages[demo - programs.begin()]["kind"], "infer");
}

// The C++ serving chain's server names its port (`--port:8181` in the config): it is ready
// when that port accepts, and two such servers never run at once.
TEST_F(TracedRun, TheCppServingChainsServerIsReadyOnThePortItsConfigNames) {
  fs::create_directories(repo_.path() / "deploy/pdserving");
  const std::string config =
      add_config("ch_PP-OCRv2_det_KL", "model_linux_gpu_normal_normal_serving_cpp_linux_gpu_cpu.txt");
  const auto run = test::run_tipc(repo_.path(), {config, "serving_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  int servers = 0;
  for (const auto& stage : stages_of(run.out)) {
    if (stage["kind"] != "service") continue;
    EXPECT_EQ(stage["service"]["port"], 8181) << stage.dump();
    ++servers;
  }
  EXPECT_GT(servers, 0) << run.out;
}

// A serving chain starts its server in the background: a service stage, with what it is
// ready on, that the client's stage depends on.
TEST_F(TracedRun, TheServingChainsServerIsAServiceStageItsClientFollows) {
  fs::create_directories(repo_.path() / "deploy/pdserving");
  const std::string config =
      add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_serving_python_linux_gpu_cpu.txt");
  const auto run = test::run_tipc(repo_.path(), {config, "serving_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("test_tipc/test_serving_infer_python.sh"), std::string::npos) << run.err;
  const auto stages = stages_of(run.out);
  int servers = 0, clients_after_a_server = 0;
  std::string last_server;
  for (const auto& stage : stages) {
    if (stage["kind"] == "service") {
      EXPECT_TRUE(stage.contains("service")) << stage.dump();
      const auto& argv = stage["argv"];
      const auto port = std::find(argv.begin(), argv.end(), "--port");
      if (port != argv.end() && port + 1 != argv.end()) {  // what it is ready on: the port it names
        EXPECT_EQ(stage["service"]["port"], std::stoi(port[1].get<std::string>())) << stage.dump();
      }
      last_server = stage["id"];
      ++servers;
    } else if (stage["kind"] == "infer" && !last_server.empty()) {
      EXPECT_EQ(stage["deps"], json::array({last_server})) << stage.dump();
      ++clients_after_a_server;
    }
  }
  EXPECT_GT(servers, 0) << run.out;
  EXPECT_GT(clients_after_a_server, 0) << run.out;
}

// Paddle-Lite ARM needs an Android device over adb: refused with that reason, exit 2.
TEST_F(TracedRun, AChainThatCannotRunHereIsRefusedWithItsReason) {
  const std::string config = add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_lite_cpp_arm_cpu.txt");
  const auto run = test::run_tipc(repo_.path(), {config, "lite_infer", "--dry-run"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("UNSUPPORTED: chain lite_arm_cpp"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("Android device over adb"), std::string::npos) << run.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
