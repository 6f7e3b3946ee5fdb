// configs/chains.yaml (issue 17): the chain of a config from its header, file name and
// MODE; the shipped file against the corpus's config kinds; a bad file's problems with
// file, line and key.
#include "dialect/chains.h"

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {

Chains shipped() {
  auto chains = load_chains(test::source_dir() + "/configs/chains.yaml");
  EXPECT_TRUE(chains) << chains.error().str();
  return chains ? *chains : Chains{};
}

std::string chain_of(const Chains& chains, const std::string& first_line, const std::string& file,
                     const std::string& mode = "") {
  const Chain* chain = choose_chain(chains, config_header(first_line), file, mode);
  return chain ? chain->name : "(none)";
}

TEST(ConfigHeader, IsTheTextBetweenTheRulesElseTheFirstKey) {
  EXPECT_EQ(config_header("===========================train_params===========================\r"), "train_params");
  EXPECT_EQ(config_header("=========================== base_train ==========================="), "base_train");
  EXPECT_EQ(config_header("runtime_device:arm_cpu"), "runtime_device");
  EXPECT_EQ(config_header("# model load config"), "# model load config");
  EXPECT_EQ(config_header(""), "");
}

TEST(Chains, TheShippedFileNamesTheRunnerOfEveryKindOfConfigInTheCorpus) {
  const Chains chains = shipped();
  const std::string rule = "===========================";
  const auto header = [&](const std::string& word) { return rule + word + rule; };
  EXPECT_EQ(chain_of(chains, header("train_params"), "train_infer_python.txt", "lite_train_lite_infer"),
            "train_infer_python");
  EXPECT_EQ(chain_of(chains, header("train_params"), "train_infer_python.txt", "benchmark_train"), "benchmark_train");
  EXPECT_EQ(chain_of(chains, header("train_params"), "train_linux_npu_normal_normal_infer_python_linux_npu.txt"),
            "train_infer_python_npu");
  EXPECT_EQ(chain_of(chains, header("paddle2onnx_params"), "x_paddle2onnx_python_linux_cpu.txt"), "paddle2onnx");
  EXPECT_EQ(chain_of(chains, header("serving_params"), "model_linux_gpu_normal_normal_serving_cpp_linux_gpu_cpu.txt"),
            "serving_infer_cpp");
  EXPECT_EQ(
      chain_of(chains, header("serving_params"), "model_linux_gpu_normal_normal_serving_python_linux_gpu_cpu.txt"),
      "serving_infer_python");
  EXPECT_EQ(chain_of(chains, header("cpp_infer_params"), "model_infer_cpp.txt"), "inference_cpp");
  EXPECT_EQ(chain_of(chains, "# model load config", "inference_cpp.txt"), "inference_cpp");
  EXPECT_EQ(chain_of(chains, header("ptq_params"), "train_ptq_infer_python.txt"), "ptq_inference_python");
  EXPECT_EQ(chain_of(chains, header("base_train"), "train_dy2static_python.txt"), "train_dy2static_python");
  EXPECT_EQ(chain_of(chains, "runtime_device:arm_cpu", "MobileNetV3_lite_arm_cpu_cpp.txt"), "lite_arm_cpp");
  EXPECT_EQ(chain_of(chains, header("no_such_params"), "x.txt"), "(none)");
  const Chain* lite = choose_chain(chains, "lite_params", "x.txt", "");
  ASSERT_TRUE(lite);
  EXPECT_NE(lite->unsupported.find("adb"), std::string::npos) << lite->unsupported;
  for (const char* device : {"npu", "xpu"}) {  // the runner moves the model to a device tipc-run cannot allocate
    const Chain* chain = choose_chain(chains, "train_params", std::string("x_") + device + "_infer_python.txt", "");
    ASSERT_TRUE(chain) << device;
    EXPECT_NE(chain->unsupported.find(std::string("device: ") + device), std::string::npos) << chain->unsupported;
  }
  EXPECT_TRUE(chain_knows_mode(chains, "paddle2onnx_infer"));
  EXPECT_TRUE(chain_knows_mode(chains, "klquant_whole_infer")) << "a traced config's runner decides";
  EXPECT_FALSE(chain_knows_mode(chains, "lite_train_infer"));
}

TEST(Chains, EveryProblemOfABadFileIsReportedWithItsLineAndKey) {
  test::TempDir dir;
  const std::string file = dir.write("chains.yaml",
                                     "chains:\n"
                                     "  - name: a\n"
                                     "    match: {header: [x], flavour: y}\n"
                                     "    runners: [a.sh]\n"
                                     "  - name: b\n"
                                     "    match: {header: [y]}\n"
                                     "    runner: b.sh\n");
  const auto chains = load_chains(file);
  ASSERT_FALSE(chains);
  const std::string text = chains.error().str();
  EXPECT_NE(text.find(file + ":3"), std::string::npos) << text;
  EXPECT_NE(text.find("flavour"), std::string::npos) << text;
  EXPECT_NE(text.find("runners"), std::string::npos) << text;
  EXPECT_NE(text.find(file + ":7"), std::string::npos) << "the misspelt key is unknown: " << text;
  EXPECT_FALSE(load_chains(dir.path().string() + "/missing.yaml"));
}

TEST(Chains, ASignatureIsReadAndEachProblemOfOneHasItsLineAndKey) {
  test::TempDir dir;
  const std::string chain_a =
      "  - name: a\n"
      "    match: {header: [x]}\n"
      "    runners: [a.sh]\n"
      "    status_logs: [a.log]\n"
      "    signature: {all: [w, v], any: [p, q], none: [n]}\n";
  const auto good = load_chains(dir.write("good.yaml", "chains:\n" + chain_a));
  ASSERT_TRUE(good) << good.error().str();
  const RunnerSignature& signature = good->chains.at(0).signature;
  EXPECT_EQ(signature.all, (std::vector<std::string>{"w", "v"}));
  EXPECT_EQ(signature.any, (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(signature.none, std::vector<std::string>{"n"});
  EXPECT_TRUE(shipped().chains.at(0).signature.all.size() > 0) << "the shipped file has signatures";

  const std::string file = dir.write("bad.yaml", "chains:\n" + chain_a +
                                                     "  - name: b\n"
                                                     "    match: {header: [y]}\n"
                                                     "    runners: [b.sh]\n"
                                                     "    signature: {all: [w], flavour: [z]}\n"
                                                     "  - name: c\n"
                                                     "    match: {header: [z]}\n"
                                                     "    runners: [c.sh]\n"
                                                     "    status_logs: [c.log]\n"
                                                     "    signature: {none: [n]}\n");
  const auto bad = load_chains(file);
  ASSERT_FALSE(bad);
  const std::string text = bad.error().str();
  EXPECT_NE(text.find(file + ":10: key 'signature': the chain has no status_logs"), std::string::npos) << text;
  EXPECT_NE(text.find(file + ":10: key 'flavour'"), std::string::npos) << "unknown keys are rejected: " << text;
  EXPECT_NE(text.find(file + ":15: key 'signature': expected words in all or any"), std::string::npos) << text;
}

// script_keys tables: read in their order into each chain that names one, "@KEY" kept for
// the kind matcher; the planner word; every problem with its line and key.
TEST(Chains, ScriptKeyTablesAndThePlannerAreReadAndEachProblemHasItsLineAndKey) {
  test::TempDir dir;
  const std::string head = "script_keys:\n  t:\n    convert: [to_x]\n    train: [\"*_train\", \"@trainer\"]\nchains:\n";
  const auto good = load_chains(dir.write("good.yaml", head + "  - name: a\n    match: {header: [x]}\n"
                                                              "    runners: [a.sh]\n    script_keys: t\n"
                                                              "    planner: native\n"));
  ASSERT_TRUE(good) << good.error().str();
  const Chain& a = good->chains.at(0);
  ASSERT_EQ(a.script_keys.size(), 3u);
  EXPECT_EQ(a.script_keys[0].kind, StageKind::kConvert);
  EXPECT_EQ(a.script_keys[2].pattern, "@trainer");
  EXPECT_EQ(a.planner, ChainPlanner::kNative);
  EXPECT_EQ(script_keys_of(a, StageKind::kTrain), std::vector<std::string>{"*_train"}) << "@KEY names no key";

  const std::string file = dir.write("bad.yaml",
                                     "script_keys:\n  t:\n    flying: [x]\n    infer: [\"@\"]\n"
                                     "  u: [a, b]\nchains:\n"
                                     "  - name: a\n    match: {header: [x]}\n    runners: [a.sh]\n"
                                     "    script_keys: missing\n    planner: magic\n");
  const auto bad = load_chains(file);
  ASSERT_FALSE(bad);
  const std::string text = bad.error().str();
  EXPECT_NE(text.find(file + ":3: key 'flying': not a stage kind"), std::string::npos) << text;
  EXPECT_NE(text.find(file + ":4: key 'infer': an empty key"), std::string::npos) << text;
  EXPECT_NE(text.find(file + ":5: key 'u': expected a map of stage kinds"), std::string::npos) << text;
  EXPECT_NE(text.find(file + ":10: key 'script_keys': no table 'missing' in the file's script_keys (it has: t, u)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(file + ":11: key 'planner': 'magic' is not one of: runner, dialect, native"), std::string::npos)
      << text;
}

// What the shipped table says of the chains tipc-run plans without their runner.
TEST(Chains, TheShippedTableNamesTheDialectChainAndTheServingClientsBothSpellings) {
  const Chains chains = shipped();
  ASSERT_NE(dialect_chain(chains), nullptr);
  EXPECT_EQ(dialect_chain(chains)->name, "train_infer_python");
  EXPECT_TRUE(dialect_describes(chains, "train_params"));
  EXPECT_FALSE(dialect_describes(chains, "serving_params"));
  for (const auto& chain : chains.chains) {
    if (chain.name != "serving_infer_python") continue;
    EXPECT_EQ(script_keys_of(chain, StageKind::kInfer),
              (std::vector<std::string>{"pipline", "pipeline", "http_client"}));
    EXPECT_EQ(chain.status_logs.front(), "results_serving.log") << "where its native plan writes its status lines";
  }
}

TEST(Chains, TheFileLiesBesideTheDialectDirectory) {
  EXPECT_EQ(chains_file("/usr/share/tipc-run/dialects"), "/usr/share/tipc-run/chains.yaml");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
