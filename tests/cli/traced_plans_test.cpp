// Planning from the repository's own runner through the command line (issue 15): which
// runner accompanies a config, --plan-from, the traced plan on a real corpus runner, the
// cross-check's warnings and --strict.
#include "cli/traced_plans.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "dialect/chains.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using nlohmann::json;

config::ConfigText decoded(const std::string& path) { return config::read_config_text(path).value(); }

dialect::Chains shipped_chains() { return dialect::load_chains(test::source_dir() + "/configs/chains.yaml").value(); }

TEST(FindRunner, TheRunnerInTheConfigsTestTipcIsStartedFromTheDirectoryAboveIt) {
  test::TempDir repo;
  const dialect::Chains chains = shipped_chains();
  const RunnerChoice choice{std::nullopt, "lite_train_lite_infer", &chains, nullptr};
  repo.write("test_tipc/test_train_inference_python.sh", "");
  const std::string config = repo.write("test_tipc/configs/m/train_infer_python.txt", "===train_params===\nmodel_name:m\n");
  const auto found = find_runner(decoded(config), repo.path().string(), choice);
  ASSERT_TRUE(found && *found) << (found ? "none found" : found.error().str());
  EXPECT_EQ((*found)->runner, "test_tipc/test_train_inference_python.sh");
  EXPECT_EQ((*found)->run_dir, ".");
  EXPECT_EQ((*found)->config_arg, "test_tipc/configs/m/train_infer_python.txt");

  repo.write("contrib/Sub/test_tipc/test_train_inference_python.sh", "");
  const std::string sub_config = repo.write("contrib/Sub/test_tipc/configs/a.txt", "===train_params===\nmodel_name:m\n");
  const auto sub = find_runner(decoded(sub_config), repo.path().string(), choice);
  ASSERT_TRUE(sub && *sub);
  EXPECT_EQ((*sub)->runner, "contrib/Sub/test_tipc/test_train_inference_python.sh");
  EXPECT_EQ((*sub)->run_dir, "contrib/Sub");
  EXPECT_EQ((*sub)->config_arg, "test_tipc/configs/a.txt");
}

TEST(FindRunner, NoRunnerIsNoneAndABadRunnerOptionIsAnError) {
  test::TempDir repo, elsewhere;
  const auto config = decoded(repo.write("test_tipc/configs/a.txt", "model_name:m\n"));
  const auto none = find_runner(config, repo.path().string(), {});
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  const auto missing = find_runner(config, repo.path().string(), {(repo.path() / "nope.sh").string(), "", nullptr});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().str().find("nope.sh"), std::string::npos) << missing.error().str();
  const auto outside = find_runner(config, repo.path().string(), {elsewhere.write("run.sh", ""), "", nullptr});
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().str().find("outside the repository"), std::string::npos) << outside.error().str();
}

// Issue 25: a runner found by what it is. A repository made from the TIPC template of paper
// reproduction names its serving runner test_serving.sh (tests/fixtures/template_serving: the
// runner, its helpers, and a config of the template's layout, which the native serving
// planner refuses: its pipline line is line 17, not 13).
class RunnerByContent : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path fixture = fs::path(test::source_dir()) / "tests/fixtures/template_serving";
    repo_.write("test_tipc/test_serving.sh", test::slurp(fixture / "test_serving.sh"));
    repo_.write("test_tipc/common_func.sh", test::slurp(fixture / "common_func.sh"));
    config_ = repo_.write("test_tipc/configs/resnet18/model_linux_gpu_normal_normal_serving_python_linux_gpu_cpu.txt",
                          test::slurp(fixture / "model_linux_gpu_normal_normal_serving_python_linux_gpu_cpu.txt"));
    fs::create_directories(repo_.path() / "deploy/serving_python");
    setenv("TIPC_TRACE_CACHE", cache_.path().c_str(), 1);
  }
  void TearDown() override { unsetenv("TIPC_TRACE_CACHE"); }

  Result<std::optional<RunnerCall>> find() {
    return find_runner(decoded(config_), repo_.path().string(), {std::nullopt, "serving_infer", &chains_});
  }
  test::RunResult dry_run(std::vector<std::string> more = {}) {
    std::vector<std::string> args = {fs::relative(config_, repo_.path()).string(), "serving_infer", "--dry-run",
                                     "--format", "jsonl"};
    args.insert(args.end(), more.begin(), more.end());
    return test::run_tipc(repo_.path(), args);
  }

  dialect::Chains chains_ = shipped_chains();
  test::TempDir repo_, cache_;
  std::string config_;
};

TEST_F(RunnerByContent, TheTemplatesTestServingPlansItsConfigWithoutRunnerAsWithIt) {
  const auto found = find();
  ASSERT_TRUE(found && *found) << (found ? "none found" : found.error().str());
  EXPECT_EQ((*found)->runner, "test_tipc/test_serving.sh");
  ASSERT_NE((*found)->chain, nullptr);
  EXPECT_EQ((*found)->chain->name, "serving_infer_python");
  const auto recognised = dry_run();
  ASSERT_EQ(recognised.exit_code, 0) << recognised.err;
  EXPECT_NE(recognised.err.find("tracing the repository's runner: test_tipc/test_serving.sh"), std::string::npos)
      << recognised.err;
  const auto given = dry_run({"--runner", "test_tipc/test_serving.sh"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(recognised.out, given.out);
  std::vector<std::string> kinds;
  for (const auto& line : test::lines_of(recognised.out)) {
    if (!line.empty()) kinds.push_back(json::parse(line)["kind"]);
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"convert", "service", "infer", "service", "infer"})) << recognised.out;
}

TEST_F(RunnerByContent, ARenamedCopyIsFoundAndTwoThatFitAreAnErrorNamingBoth) {
  fs::rename(repo_.path() / "test_tipc/test_serving.sh", repo_.path() / "test_tipc/serving_check.sh");
  const auto renamed = find();
  ASSERT_TRUE(renamed && *renamed) << (renamed ? "none found" : renamed.error().str());
  EXPECT_EQ((*renamed)->runner, "test_tipc/serving_check.sh");

  fs::copy_file(repo_.path() / "test_tipc/serving_check.sh", repo_.path() / "test_tipc/serving_copy.sh");
  const auto two = find();
  ASSERT_FALSE(two);
  const std::string text = two.error().str();
  EXPECT_NE(text.find(config_ + ":1"), std::string::npos) << text;
  EXPECT_NE(text.find("test_tipc/serving_check.sh and "), std::string::npos) << text;
  EXPECT_NE(text.find("test_tipc/serving_copy.sh"), std::string::npos) << text;
  EXPECT_NE(text.find("--runner"), std::string::npos) << text;
  EXPECT_EQ(dry_run().exit_code, 2);
}

TEST_F(RunnerByContent, ARunnerFileOfTheChainsNameWinsOverOneThatFits) {
  repo_.write("test_tipc/test_serving_infer_python.sh", "echo a runner of the chain's name\n");
  const auto found = find();
  ASSERT_TRUE(found && *found) << (found ? "none found" : found.error().str());
  EXPECT_EQ((*found)->runner, "test_tipc/test_serving_infer_python.sh");
}

// Without a script that fits, the native serving planner takes the config, as before, and
// refuses this layout with the line and key.
TEST_F(RunnerByContent, WithOnlyHelpersLeftTheNativePlannerRefusesTheTemplatesLayout) {
  fs::remove(repo_.path() / "test_tipc/test_serving.sh");
  repo_.write("test_tipc/prepare.sh", "source test_tipc/common_func.sh\nmodel_name=$(func_parser_value \"$1\")\n"
                                      "wget -nc https://example.invalid/${model_name}_infer.tar\n");
  const auto none = find();
  ASSERT_TRUE(none) << none.error().str();
  EXPECT_FALSE(*none);
  const auto native = dry_run();
  EXPECT_EQ(native.exit_code, 2);
  EXPECT_NE(native.err.find("found key 'null'"), std::string::npos) << native.err;
}

// Every config of the corpus keeps the runner its chain names: no script of the corpus is
// taken for a runner by its content, and a config without one stays without. The runners are
// laid out as in a checkout; each config is read where it is and looked up at its place there.
TEST(FindRunner, EveryCorpusConfigKeepsTheRunnerItsChainNames) {
  const fs::path corpus = fs::path(test::shared_dir()) / "tipc-corpus";
  if (!fs::exists(corpus)) GTEST_SKIP() << "NOT CHECKED: " << corpus << " is missing";
  const dialect::Chains chains = shipped_chains();
  int configs = 0, with_runner = 0;
  for (const auto& repo : fs::directory_iterator(corpus / "configs")) {
    test::TempDir root;
    fs::copy(corpus / "runners" / repo.path().filename(), root.path(), fs::copy_options::recursive);
    dialect::RunnerScripts scripts;
    for (const auto& entry : fs::recursive_directory_iterator(repo.path())) {
      auto text = config::read_config_text(entry.path().string());
      if (entry.path().extension() != ".txt" || !text) continue;
      text->path = (root.path() / entry.path().lexically_relative(repo.path())).string();
      const dialect::Chain* chain = dialect::choose_chain(chains, dialect::config_header(text->header_line()),
                                                          entry.path().filename().string(), "");
      const std::string mode = chain && !chain->modes.empty() ? chain->modes.front() : "whole_infer";
      const auto found = find_runner(*text, root.path().string(), {std::nullopt, mode, &chains, &scripts});
      ++configs;
      if (!found || !*found) continue;
      ++with_runner;
      const std::string name = fs::path((*found)->runner).filename().string();
      const auto& named = (chain ? chain : dialect::dialect_chain(chains))->runners;
      EXPECT_TRUE(std::find(named.begin(), named.end(), name) != named.end()) << text->path << ": " << name;
    }
  }
  EXPECT_GT(configs, 1000);
  EXPECT_GT(with_runner, 1000);
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
  const auto run = test::run_tipc(repo.path(), {"test_tipc/configs", "lite_train_lite_infer", "--dry-run",
                                                "--plan-from", "runner"});
  unsetenv("TIPC_TRACE_CACHE");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("cannot plan this one"), std::string::npos) << run.err;
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
      if (entry.is_regular_file()) repo_.write("test_tipc/" + entry.path().filename().string(), test::slurp(entry.path()));
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
      calls.push_back(call["argv0"].get<std::string>() + " " + call["argv"].dump() + " in " + call["cwd"].get<std::string>());
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
  EXPECT_NE(traced.err.find("1 config planned by tracing the repository's runner: test_tipc/test_train_inference_python.sh"),
            std::string::npos)
      << traced.err;
  EXPECT_EQ(planned_argv(traced.out), golden_argv("PaddleOCR__test_tipc__configs__ch_PP-OCRv3_det__train_infer_python"));
  ASSERT_FALSE(fs::is_empty(cache_.path())) << "the trace is kept";
  const auto again = test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--format", "jsonl"});
  EXPECT_EQ(again.out, traced.out) << "the cached trace plans the same";

  EXPECT_EQ(traced.err.find("dialect template"), std::string::npos)
      << "the runner alone is a weak marker: the traced plan does not lean on the dialect it suggests\n" << traced.err;

  // Planned natively, the only dialect the runner suggests is the template's, whose layout
  // this config does not have.
  const auto native = test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--format", "jsonl",
                                                    "--plan-from", "dialect"});
  EXPECT_EQ(native.exit_code, 2) << native.err;
  EXPECT_EQ(native.err.find("tracing"), std::string::npos) << native.err;
  EXPECT_NE(native.err.find("dialect template"), std::string::npos) << native.err;
  EXPECT_NE(native.err.find("error: " + config + ":"), std::string::npos) << native.err;
}

TEST_F(TracedRun, PlanFromRunnerWithoutARunnerIsAnErrorNamingTheConfig) {
  const std::string config = add_config("ch_PP-OCRv3_det");
  fs::remove(repo_.path() / "test_tipc/test_train_inference_python.sh");
  const auto run = test::run_tipc(repo_.path(), {config, "lite_train_lite_infer", "--dry-run", "--plan-from", "runner"});
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
  const std::string config = add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_paddle2onnx_python_linux_cpu.txt");
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
  const std::string config = add_config("ch_PP-OCRv3_det", "model_linux_gpu_normal_normal_paddle2onnx_python_linux_cpu.txt");
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
}  // namespace tipc::cli
