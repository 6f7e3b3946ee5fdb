// A chain's runner recognised by its text (issue 25): the signature's words, the status log
// named as a file, comment lines left out, each directory's scripts read once and only so
// far; helpers never fit, and the corpus's runners fit their own chain and no script of the
// corpus is taken for another chain's runner.
#include "dialect/runner_signature.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

Chain serving_chain() {
  Chain chain;
  chain.name = "serving";
  chain.runners = {"test_serving_infer_python.sh"};
  chain.status_logs = {"results.log"};
  chain.signature = {{"status_check", "web_service"}, {"pipeline", "pipline"}, {"cpp_server"}};
  return chain;
}

Chains shipped() {
  auto chains = load_chains(test::source_dir() + "/configs/chains.yaml");
  EXPECT_TRUE(chains) << chains.error().str();
  return chains ? *chains : Chains{};
}

fs::path corpus_runners() { return fs::path(test::shared_dir()) / "tipc-corpus/runners"; }

std::vector<fs::path> corpus_test_tipc_directories() {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::recursive_directory_iterator(corpus_runners())) {
    if (entry.is_directory() && entry.path().filename() == "test_tipc") dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

TEST(RunnerSignature, EveryWordOfAllOneOfAnyNoneOfNoneAndAStatusLogNamedAsAFile) {
  const Chain chain = serving_chain();
  const std::string runner = "status_check\nweb_service_py=x\npipeline_py=y\nlog=\"${LOG}/results.log\"\n";
  EXPECT_TRUE(fits(chain, runner));
  EXPECT_TRUE(fits(chain, "status_check web_service pipline > results.log\n")) << "any one of `any`";
  EXPECT_FALSE(fits(chain, "web_service pipeline results.log\n")) << "every one of `all`";
  EXPECT_FALSE(fits(chain, "status_check web_service results.log\n")) << "one of `any`";
  EXPECT_FALSE(fits(chain, runner + "cpp_server_cmd=z\n")) << "none of `none`";
  EXPECT_FALSE(fits(chain, "status_check web_service pipeline\n")) << "it names no status log";
  EXPECT_FALSE(fits(chain, "status_check web_service pipeline bench_results.log\n")) << "another file's name";
  EXPECT_FALSE(fits(chain, "status_check web_service pipeline results.log.bak\n")) << "another file's name";
  Chain unsigned_chain = chain;
  unsigned_chain.signature = {};
  EXPECT_FALSE(fits(unsigned_chain, runner)) << "a chain without a signature is found by name only";
}

TEST(RunnerSignature, CommentLinesDoNotCount) {
  EXPECT_EQ(without_comment_lines("#!/bin/bash\n  # web_service\nrun # kept\n\n#x"), "run # kept\n\n");
  EXPECT_FALSE(fits(serving_chain(), without_comment_lines("# status_check web_service pipeline results.log\n")));
}

TEST(RunnerScripts, EachDirectorysShellScriptsAreReadOnceInNameOrderAndBounded) {
  test::TempDir dir;
  dir.write("b.sh", "# comment\nb\n");
  dir.write("a.sh", std::string(kRunnerScriptBytes, 'a') + "beyond");
  dir.write("notes.txt", "not a script");
  fs::create_directories(dir.path() / "sub.sh");
  RunnerScripts scripts;
  const auto& read = scripts.in(dir.path().string());
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].name, "a.sh");
  EXPECT_EQ(read[0].text.size(), kRunnerScriptBytes) << "read up to the bound";
  EXPECT_EQ(read[1].name, "b.sh");
  EXPECT_EQ(read[1].text, "b\n");
  dir.write("b.sh", "changed\n");
  dir.write("c.sh", "new\n");
  EXPECT_EQ(scripts.in(dir.path().string()).size(), 2u) << "read once per run";
  EXPECT_EQ(scripts.in(dir.path().string())[1].text, "b\n");
  EXPECT_EQ(RunnerScripts().in(dir.path().string()).size(), 3u);
  EXPECT_TRUE(RunnerScripts().in((dir.path() / "missing").string()).empty());
}

TEST(RunnerScripts, AScriptAnotherChainNamesAsItsRunnerIsThatChains) {
  Chains chains;
  chains.chains = {serving_chain(), serving_chain()};
  chains.chains[1].name = "other";
  chains.chains[1].runners = {"other.sh"};
  const std::string text = "status_check web_service pipeline results.log\n";
  const std::vector<RunnerScript> scripts = {{"other.sh", text}, {"renamed.sh", text}, {"helper.sh", "status_check\n"}};
  EXPECT_EQ(fitting_runners(chains, chains.chains[0], scripts), std::vector<std::string>{"renamed.sh"});
  EXPECT_EQ(fitting_runners(chains, chains.chains[1], scripts), (std::vector<std::string>{"other.sh", "renamed.sh"}));
}

// The helpers parse configs and define status_check, but report nothing of their own.
TEST(RunnerSignature, HelperScriptsFitNoChain) {
  const Chains chains = shipped();
  std::vector<RunnerScript> helpers = {
      {"common_func.sh",
       without_comment_lines(test::slurp(test::source_dir() + "/tests/fixtures/template_serving/common_func.sh"))}};
  if (fs::exists(corpus_runners())) {
    RunnerScripts corpus;
    for (const auto& dir : corpus_test_tipc_directories()) {
      for (const auto& script : corpus.in(dir.string())) {
        const std::string& name = script.name;
        if (name.starts_with("prepare") || name.ends_with("_func.sh") || name == "build_server.sh") {
          helpers.push_back(script);
        }
      }
    }
  }
  EXPECT_GT(helpers.size(), 1u);
  for (const auto& helper : helpers) {
    for (const auto& chain : chains.chains) EXPECT_FALSE(fits(chain, helper.text)) << helper.name << " " << chain.name;
  }
}

// In every test_tipc/ of the corpus, a chain's runner fits its signature, and no other script
// there does: recognition never takes a corpus script for another chain's runner.
TEST(RunnerSignature, TheCorpusRunnersFitTheirChainAndNoOtherScriptFitsIt) {
  if (!fs::exists(corpus_runners())) GTEST_SKIP() << "NOT CHECKED: " << corpus_runners() << " is missing";
  const Chains chains = shipped();
  int runners_fitting = 0;
  RunnerScripts corpus;
  for (const auto& dir : corpus_test_tipc_directories()) {
    const auto& scripts = corpus.in(dir.string());
    for (const auto& chain : chains.chains) {
      for (const auto& name : fitting_runners(chains, chain, scripts)) {
        const bool own = std::find(chain.runners.begin(), chain.runners.end(), name) != chain.runners.end();
        EXPECT_TRUE(own) << (dir / name).string() << " fits chain " << chain.name;
        runners_fitting += own;
      }
      for (const auto& script : scripts) {
        const bool named = std::find(chain.runners.begin(), chain.runners.end(), script.name) != chain.runners.end();
        if (!named || chain.signature.empty() || script.text.empty()) continue;
        EXPECT_TRUE(fits(chain, script.text)) << (dir / script.name).string() << " does not fit chain " << chain.name;
      }
    }
  }
  EXPECT_GT(runners_fitting, 40);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
