// A directory in several MODEs (issue 39, item 1): `tipc-run DIR MODE,MODE...` collects the
// configs of every chain, runs each in the listed MODEs its chain takes, counts the others by
// chain, and refuses a MODE that no config takes, naming the chains that have it.
#include "cli/suite_modes.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/demo_repo.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/service_processes.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// "CONFIG MODE" of every plan a --dry-run prints ("# CONFIG: MODEL MODE (...)").
std::set<std::string> planned(const std::string& dry_run) {
  std::set<std::string> plans;
  std::istringstream lines(dry_run);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("# ")) continue;
    const std::size_t colon = line.find(": ");
    const std::size_t mode = line.find(' ', colon + 2) + 1;
    plans.insert(line.substr(2, colon - 2) + " " + line.substr(mode, line.find(' ', mode) - mode));
  }
  return plans;
}

// The demo's configs: two train/infer (alexnet, alexnet_2nodes), ONNX, serving and C++.
TEST(SuiteModes, ADirectoryInOneModeRunsTheConfigsOfTheChainThatTakesItAndCountsTheOthers) {
  const auto r = test::run_tipc(test::source_dir(), {"test_tipc/configs", "paddle2onnx_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << "before: 2 of 2 configs invalid, the ONNX config not collected\n" << r.err;
  EXPECT_EQ(planned(r.out), (std::set<std::string>{"test_tipc/configs/alexnet_paddle2onnx.txt paddle2onnx_infer"}));
  EXPECT_NE(r.err.find("tipc-run: 4 configs take none of the MODEs paddle2onnx_infer, not run: 1 inference_cpp "
                       "(cpp_infer); 1 serving_infer_python (serving_infer); 2 train_infer_python "
                       "(lite_train_lite_infer, lite_train_whole_infer, whole_train_whole_infer, whole_infer, "
                       "klquant_whole_infer)\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("invalid"), std::string::npos) << r.err;
}

// The reports name them too (issue 39: "in the console and in the reports"), also when
// `tipc-run report DIR` rebuilds them.
TEST(SuiteModes, TheReportsNameTheConfigsInNoneOfTheModesWithTheirChain) {
  test::TempDir repo;
  test::copy_demo_parts(repo, {"test_tipc/configs", "test_tipc/test_inference_cpp.sh"});
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs", "paddle2onnx_infer", "--gpus", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const fs::path reports = repo.path() / "test_tipc/output/alexnet/paddle2onnx_infer";
  const auto check = [&](const std::string& when) {
    const auto json = nlohmann::json::parse(test::slurp((reports / "report.json").string()));
    std::set<std::string> others;
    for (const auto& config : json["configs_in_other_modes"]) {
      others.insert(config["file"].get<std::string>() + " " + config["chain"].get<std::string>());
    }
    EXPECT_EQ(others, (std::set<std::string>{"test_tipc/configs/alexnet.txt train_infer_python",
                                             "test_tipc/configs/alexnet_2nodes.txt train_infer_python",
                                             "test_tipc/configs/alexnet_cpp.txt inference_cpp",
                                             "test_tipc/configs/alexnet_serving.txt serving_infer_python"}))
        << when;
    EXPECT_NE(test::slurp((reports / "summary.md").string())
                  .find("4 configs in none of the MODEs: 1 inference_cpp (cpp_infer); 1 serving_infer_python "
                        "(serving_infer); 2 train_infer_python ("),
              std::string::npos)
        << when;
    EXPECT_NE(test::slurp((reports / "report.html").string()).find("<h2>4 configs in none of the MODEs</h2>"),
              std::string::npos)
        << when;
  };
  check("after the run");
  for (const char* file : {"report.json", "summary.md", "report.html"}) fs::remove(reports / file);
  const auto rebuilt = test::run_tipc(repo.path().string(), {"report", reports.string()});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  check("after tipc-run report");
}

TEST(SuiteModes, ADirectoryInFourModesPlansEachConfigInTheModesItsChainTakes) {
  const auto r = test::run_tipc(
      test::source_dir(),
      {"test_tipc/configs", "lite_train_lite_infer,paddle2onnx_infer,serving_infer,cpp_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(planned(r.out), (std::set<std::string>{"test_tipc/configs/alexnet.txt lite_train_lite_infer",
                                                   "test_tipc/configs/alexnet_2nodes.txt lite_train_lite_infer",
                                                   "test_tipc/configs/alexnet_paddle2onnx.txt paddle2onnx_infer",
                                                   "test_tipc/configs/alexnet_serving.txt serving_infer",
                                                   "test_tipc/configs/alexnet_cpp.txt cpp_infer"}));
  EXPECT_EQ(r.err.find("none of the MODEs"), std::string::npos) << "every config takes one\n" << r.err;
}

// The demo's configs without the serving one: serving_infer is no config's MODE here.
TEST(SuiteModes, AModeNoConfigTakesIsAnErrorNamingTheChainsThatHaveIt) {
  test::TempDir repo;
  fs::copy(test::source_dir() + "/test_tipc", repo.path() / "test_tipc", fs::copy_options::recursive);
  fs::remove_all(repo.path() / "test_tipc/output");
  fs::remove(repo.path() / "test_tipc/configs/alexnet_serving.txt");
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs", "whole_infer,serving_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tipc-run: error: MODE 'serving_infer': no config of this directory takes it (the chains that "
                       "have it: serving_infer_cpp, serving_infer_python; its configs take:"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// `tipc-run test_tipc/configs` alone runs the repository's usual set: the settings' modes:.
TEST(SuiteModes, WithoutAModeTheSettingsModesAreTheRunsAndWithoutThemItIsAnError) {
  test::TempDir repo;
  test::copy_demo_parts(repo, {"test_tipc/configs", "test_tipc/test_inference_cpp.sh"});
  std::string settings = test::slurp((repo.path() / "test_tipc/tipc-run.yaml").string());
  const auto modes_line = settings.find("\nmodes: ");
  ASSERT_NE(modes_line, std::string::npos) << "the demo's settings name its usual CI set";
  settings.erase(modes_line + 1, settings.find('\n', modes_line + 1) - modes_line);
  repo.write("test_tipc/tipc-run.yaml", settings);
  const auto none = test::run_tipc(repo.path(), {"test_tipc/configs", "--dry-run"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(
      none.err.find("no MODE given: name one (tipc-run test_tipc/configs lite_train_lite_infer), a comma list, or "
                    "list them in the settings' modes:"),
      std::string::npos)
      << none.err;
  repo.write("test_tipc/tipc-run.yaml", settings + "\nmodes: [paddle2onnx_infer, cpp_infer]\n");
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(planned(r.out), (std::set<std::string>{"test_tipc/configs/alexnet_paddle2onnx.txt paddle2onnx_infer",
                                                   "test_tipc/configs/alexnet_cpp.txt cpp_infer"}));
  const auto given = test::run_tipc(repo.path(), {"test_tipc/configs", "whole_infer", "--dry-run"});
  EXPECT_EQ(planned(given.out), (std::set<std::string>{"test_tipc/configs/alexnet.txt whole_infer",
                                                       "test_tipc/configs/alexnet_2nodes.txt whole_infer"}))
      << "a MODE given wins over the settings'";
}

TEST(SuiteModes, AModeListWithAnEmptyOrARepeatedModeIsAUsageError) {
  for (const auto& [modes, why] : {std::pair{"whole_infer,,cpp_infer", "an empty MODE in the list"},
                                   std::pair{"whole_infer,whole_infer", "MODE 'whole_infer' twice in the list"}}) {
    const auto r = test::run_tipc(test::source_dir(), {"test_tipc/configs", modes, "--dry-run"});
    EXPECT_EQ(r.exit_code, 2) << modes;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
}

// The demo's settings name its usual CI set (`modes:`): the directory alone plans every config
// in those MODEs, as README command 1 spells them out.
TEST(SuiteModes, TheDirectoryAloneRunsTheSettingsModesAsIfTheyWereGiven) {
  const auto alone = test::run_tipc(test::source_dir(), {"test_tipc/configs", "--dry-run"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const auto given = test::run_tipc(
      test::source_dir(), {"test_tipc/configs",
                           "lite_train_lite_infer,whole_infer,paddle2onnx_infer,serving_infer,cpp_infer", "--dry-run"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(planned(alone.out), planned(given.out));
  EXPECT_EQ(planned(alone.out).size(), 7u) << alone.out;  // 2 train/infer configs x 2 MODEs, 3 other chains
}

// Issue 39's acceptance, README command 1: one command runs every chain of the demo and
// passes; report.json has a verdict for each (config, MODE). The 2-node config's train cannot
// run without a cluster, and says so.
TEST(SuiteModesDemo, EveryChainOfTheDemoRunsInOneCommandWithAVerdictPerConfig) {
  test::require_demo_python("the demo's chains");
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  test::TempDir repo;
  test::copy_demo_parts(repo, {"test_tipc/configs", "test_tipc/test_inference_cpp.sh"});
  const int port = test::free_port();
  const fs::path serving = repo.path() / "test_tipc/configs/alexnet_serving.txt";
  std::string text = test::slurp(serving.string());
  for (auto at = text.find("18093"); at != std::string::npos; at = text.find("18093", at)) {
    text.replace(at, 5, std::to_string(port));  // a port of its own: tests run in parallel
  }
  repo.write("test_tipc/configs/alexnet_serving.txt", text);
  const auto r = test::run_tipc(
      repo.path(), {"test_tipc/configs", "lite_train_lite_infer,whole_infer,paddle2onnx_infer,serving_infer,cpp_infer",
                    "--gpus", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(needs 2 nodes; the local executor runs on one machine): alexnet_2nodes.txt "
                       "lite_train_lite_infer: norm_train/gpus_0,1/autocast_null/train"),
            std::string::npos)
      << r.out;
  const auto report = nlohmann::json::parse(test::slurp((repo.path() / "test_tipc/output/report.json").string()));
  std::set<std::string> verdicts;
  for (const auto& plan : report["plans"]) {
    verdicts.insert(plan["config"].get<std::string>() + " " + plan["mode"].get<std::string>() + " " +
                    plan["verdict"].get<std::string>());
  }
  EXPECT_EQ(verdicts, (std::set<std::string>{"test_tipc/configs/alexnet.txt lite_train_lite_infer PARTIAL",
                                             "test_tipc/configs/alexnet_2nodes.txt lite_train_lite_infer NOTHING RAN",
                                             "test_tipc/configs/alexnet.txt whole_infer PARTIAL",
                                             "test_tipc/configs/alexnet_2nodes.txt whole_infer PASS",
                                             "test_tipc/configs/alexnet_paddle2onnx.txt paddle2onnx_infer PASS",
                                             "test_tipc/configs/alexnet_serving.txt serving_infer PASS",
                                             "test_tipc/configs/alexnet_cpp.txt cpp_infer PASS"}));
  EXPECT_EQ(report["verdict"], "PARTIAL") << report["headline"];
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
