// Which runner plans a config (plan/runner_lookup.h, issue 15 and 25): the runner of the
// config's chain in the test_tipc/ above it, found by name or by what it is, --runner, and
// every corpus config keeping the runner its chain names.
#include "plan/runner_lookup.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "dialect/chains.h"
#include "support/copy_tree.h"
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

config::ConfigText decoded(const std::string& path) { return config::read_config_text(path).value(); }

TEST(FindRunner, TheRunnerInTheConfigsTestTipcIsStartedFromTheDirectoryAboveIt) {
  test::TempDir repo;
  const dialect::Chains chains = test::shipped_chains();
  const RunnerChoice choice{std::nullopt, "lite_train_lite_infer", &chains, nullptr};
  repo.write("test_tipc/test_train_inference_python.sh", "");
  const std::string config =
      repo.write("test_tipc/configs/m/train_infer_python.txt", "===train_params===\nmodel_name:m\n");
  const auto found = find_runner(decoded(config), repo.path().string(), choice);
  ASSERT_TRUE(found && *found) << (found ? "none found" : found.error().str());
  EXPECT_EQ((*found)->runner, "test_tipc/test_train_inference_python.sh");
  EXPECT_EQ((*found)->run_dir, ".");
  EXPECT_EQ((*found)->config_arg, "test_tipc/configs/m/train_infer_python.txt");

  repo.write("contrib/Sub/test_tipc/test_train_inference_python.sh", "");
  const std::string sub_config =
      repo.write("contrib/Sub/test_tipc/configs/a.txt", "===train_params===\nmodel_name:m\n");
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

  dialect::Chains chains_ = test::shipped_chains();
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
  repo_.write("test_tipc/prepare.sh",
              "source test_tipc/common_func.sh\nmodel_name=$(func_parser_value \"$1\")\n"
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
  const dialect::Chains chains = test::shipped_chains();
  int configs = 0, with_runner = 0;
  for (const auto& repo : fs::directory_iterator(corpus / "configs")) {
    test::TempDir root;
    test::copy_tree(corpus / "runners" / repo.path().filename(), root.path());
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

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
