// Selecting stages with --only and -k (cli/suite): what is kept, and what a kept stage
// remembers of the stages before it that were left out. Folders of configs: the invalid
// ones are reported and left out, the valid ones run.
#include "cli/suite.h"

#include <filesystem>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_repo_run.h"
#include "support/junit_xml.h"

namespace tipc::cli {
namespace {
namespace fs = std::filesystem;

plan::Stage stage(const std::string& id, plan::StageKind kind, int gpus, std::vector<std::string> deps = {}) {
  plan::Stage s;
  s.id = id;
  s.kind = kind;
  s.needs.gpus = gpus;
  s.deps = std::move(deps);
  return s;
}

// train (2 GPUs) -> export -> gpu infer (1 GPU) -> its check; export -> cpu infer -> its check.
std::vector<plan::Plan> chain() {
  using K = plan::StageKind;
  plan::Plan p;
  p.stages = {stage("train", K::kTrain, 2),           stage("export", K::kExport, 0, {"train"}),
              stage("gpu", K::kInfer, 1, {"export"}), stage("cpu", K::kInfer, 0, {"export"}),
              stage("gpu/check", K::kCheck, 0, {"gpu"}), stage("cpu/check", K::kCheck, 0, {"cpu"})};
  return {p};
}

std::vector<std::pair<std::string, int>> unselected(const plan::Stage& s) {
  std::vector<std::pair<std::string, int>> deps;
  for (const auto& dep : s.unselected_deps) deps.emplace_back(dep.id, dep.needs.gpus);
  std::sort(deps.begin(), deps.end());
  return deps;
}

TEST(SelectStages, AKeptStageRemembersEveryLeftOutStageBeforeItWithItsNeeds) {
  auto plans = chain();
  ASSERT_TRUE(select_stages(plans, {"check"}, ""));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_TRUE(stages[0].deps.empty());
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"gpu", 1}, {"train", 2}}));
  EXPECT_EQ(unselected(stages[1]), (std::vector<std::pair<std::string, int>>{{"cpu", 0}, {"export", 0}, {"train", 2}}));
}

TEST(SelectStages, TheWalkStopsAtAKeptStage) {
  auto plans = chain();
  ASSERT_TRUE(select_stages(plans, {"infer", "check"}, ""));
  const auto& stages = plans[0].stages;
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(unselected(stages[0]), (std::vector<std::pair<std::string, int>>{{"export", 0}, {"train", 2}}));
  EXPECT_TRUE(stages[2].unselected_deps.empty()) << "its producer was kept: a dependency as usual";
  EXPECT_EQ(stages[2].deps, std::vector<std::string>{"gpu"});
}

TEST(SelectStages, ASelectionOfNothingIsAnErrorNamingIt) {
  auto plans = chain();
  const auto result = select_stages(plans, {}, "nope*");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("-k 'nope*' selects none of the 6 planned stages"), std::string::npos)
      << result.error().str();
}

// A folder of three configs: fake.txt and fake2.txt are valid, bad.txt misses its line 17.
class ConfigFolder : public test::FakeRepoTest {
 protected:
  void SetUp() override {
    FakeRepoTest::SetUp();
    std::string second = test::fake_config();
    second.replace(second.find("model_name:fake"), 15, "model_name:fake2");
    repo_.write("test_tipc/configs/fake2.txt", second);
    std::string bad = test::fake_config();
    bad.erase(bad.find("pact_train:null\n"), 16);
    repo_.write("test_tipc/configs/bad.txt", bad);
  }
  test::RunResult run_folder(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"test_tipc/configs", "lite_train_lite_infer", "--gpus", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tipc(repo_.path(), args);
  }
  static constexpr const char* kBadLine = "test_tipc/configs/bad.txt:17";
};

TEST_F(ConfigFolder, TheValidConfigsRunAndTheInvalidOneIsReportedEverywhereWithItsLine) {
  const auto r = run_folder();
  EXPECT_EQ(r.exit_code, 2) << "every stage that ran passed; an invalid config is a config error\n" << r.out << r.err;
  EXPECT_EQ(records(), 10) << "train, eval, export and two CPU inferences of each valid config";
  EXPECT_NE(r.err.find(std::string("tipc-run: error: ") + kBadLine + ": expected key 'pact_train'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tipc-run: 1 of 3 configs invalid, left out: test_tipc/configs/bad.txt\n"), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("tipc-run: 1 of 3 configs invalid, left out: test_tipc/configs/bad.txt\n"), std::string::npos)
      << "the end of the console says it again\n" << r.out;

  const fs::path reports = repo_.path() / "test_tipc/output";
  const auto json = nlohmann::json::parse(test::slurp(reports / "report.json"));
  EXPECT_EQ(json["exit_code"], 2);
  EXPECT_EQ(json["plans"].size(), 2u);
  // One entry per problem: every line after the missing one is reported too, as on the console.
  std::size_t console_errors = 0;
  for (auto at = r.err.find("tipc-run: error: "); at != std::string::npos; at = r.err.find("tipc-run: error: ", at + 1)) {
    ++console_errors;
  }
  ASSERT_GT(console_errors, 1u);
  ASSERT_EQ(json["invalid_configs"].size(), console_errors);
  EXPECT_EQ(json["invalid_configs"][0]["file"], "test_tipc/configs/bad.txt");
  EXPECT_EQ(json["invalid_configs"][0]["line"], 17);
  EXPECT_EQ(json["invalid_configs"][0]["key"], "fpgm_train") << "the key found where pact_train belongs";

  const auto junit = test::read_junit(test::slurp(reports / "junit.xml"));
  EXPECT_EQ(junit.errors, "");
  const auto invalid = std::find_if(junit.cases.begin(), junit.cases.end(),
                                    [](const test::JunitCase& c) { return c.classname == "invalid-config"; });
  ASSERT_NE(invalid, junit.cases.end());
  EXPECT_EQ(invalid->name, kBadLine);
  EXPECT_EQ(invalid->outcome, "error");
  EXPECT_NE(invalid->message.find("expected key 'pact_train'"), std::string::npos) << invalid->message;
  EXPECT_NE(test::slurp(reports / "summary.md").find("| `test_tipc/configs/bad.txt` | 17 | `fpgm_train` | expected key 'pact_train'"),
            std::string::npos);

  const auto again = test::run_tipc(repo_.path(), {"report", reports.string()});
  EXPECT_EQ(again.exit_code, 2) << "the reports of the run keep it failing\n" << again.out << again.err;
  EXPECT_NE(again.out.find("tipc-run report: invalid config, left out: " + std::string(kBadLine)), std::string::npos)
      << again.out;
}

TEST_F(ConfigFolder, ADryRunPrintsTheValidPlansListsTheInvalidOnesAndExitsNonZero) {
  const auto r = run_folder({"--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("# test_tipc/configs/fake.txt: fake lite_train_lite_infer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# test_tipc/configs/fake2.txt: fake2 lite_train_lite_infer"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bad.txt"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find(kBadLine), std::string::npos) << r.err;
  EXPECT_EQ(records(), 0);
}

TEST_F(ConfigFolder, AFolderOfOnlyInvalidConfigsExitsTwoAndRunsNothing) {
  fs::remove(config_);
  fs::remove(repo_.path() / "test_tipc/configs/fake2.txt");
  const auto r = run_folder();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(kBadLine), std::string::npos) << r.err;
  EXPECT_EQ(records(), 0);
  EXPECT_FALSE(fs::exists(repo_.path() / "test_tipc/output")) << "nothing is written";
}

TEST_F(ConfigFolder, AnUnknownModeIsOneErrorNotOnePerConfig) {
  const auto r = test::run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  const auto first = r.err.find("unknown mode 'lite_train_infer'");
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unknown mode", first + 1), std::string::npos) << r.err;
}

// Three configs of one model name (as PaddleOCR's ch_PP-OCRv3_det holds): the reference
// writes one directory for all of them; a suite gives each its own below it.
class SharedModelName : public test::FakeRepoTest {
 protected:
  void SetUp() override {
    FakeRepoTest::SetUp();
    repo_.write("test_tipc/configs/amp/fake.txt", test::fake_config());
    repo_.write("test_tipc/configs/fake_amp.txt", test::fake_config());
  }
};

TEST_F(SharedModelName, EachConfigWritesItsOwnDirectoryAndEveryReportListsEveryStageOnce) {
  const auto r = test::run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--gpus", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("tipc-run: PASS (partial: 6 of 21 stages could not run)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tipc-run: 3 configs share an output directory with another config"), std::string::npos) << r.out;
  EXPECT_EQ(records(), 15) << "the five CPU stages of each config ran (two need a GPU)";
  for (const char* dir : {"fake", "fake-2", "fake_amp"}) {
    EXPECT_TRUE(fs::exists(output() / dir / "results_python.log")) << dir;
  }
  const fs::path reports = repo_.path() / "test_tipc/output";
  const auto json = nlohmann::json::parse(test::slurp(reports / "report.json"));
  ASSERT_EQ(json["plans"].size(), 3u);
  std::set<std::string> dirs, logs;
  std::size_t stages = 0;
  for (const auto& plan : json["plans"]) {
    dirs.insert(plan["output_dir"].get<std::string>());
    for (const auto& stage : plan["stages"]) {
      ++stages;
      logs.insert(stage["log"].get<std::string>());
    }
  }
  EXPECT_EQ(dirs.size(), 3u);
  EXPECT_EQ(stages, 21u);
  EXPECT_EQ(logs.size(), 21u) << "no log is written twice";
  EXPECT_EQ(json["headline"], "PASS (partial: 6 of 21 stages could not run)") << "the console's verdict";

  const auto junit = test::read_junit(test::slurp(reports / "junit.xml"));
  EXPECT_EQ(junit.errors, "");
  EXPECT_EQ(junit.suites.size(), 3u);
  EXPECT_EQ(junit.cases.size(), 21u);
  std::set<std::pair<std::string, std::string>> names;
  for (const auto& c : junit.cases) names.insert({c.classname, c.name});
  EXPECT_EQ(names.size(), 21u) << "testcase names are unique within the file";
  std::set<std::string> suites;
  for (const auto& suite : junit.suites) suites.insert(suite.attributes.at("name"));
  EXPECT_EQ(suites.size(), 3u) << "each config its own testsuite name";
}

TEST_F(SharedModelName, ADryRunNamesEachConfigAndItsOwnDirectory) {
  const auto r = test::run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* header : {"# test_tipc/configs/amp/fake.txt: fake lite_train_lite_infer",
                             "# test_tipc/configs/fake.txt: fake lite_train_lite_infer",
                             "# test_tipc/configs/fake_amp.txt: fake lite_train_lite_infer"}) {
    EXPECT_NE(r.out.find(header), std::string::npos) << header << "\n" << r.out;
  }
  EXPECT_NE(r.out.find("output ./test_tipc/output/fake/lite_train_lite_infer/fake_amp\n"), std::string::npos) << r.out;
}

// PaddleClas's real configs: 4 of its 525 train_params files do not conform; the other 521
// are planned. Needs ../shared (the corpus).
TEST(ConfigFolderCorpus, PaddleClasPlansEveryValidConfigAndListsTheInvalidOnes) {
  const fs::path corpus = test::shared_dir() + "/tipc-corpus/configs/PaddleClas/test_tipc";
  if (!fs::exists(corpus)) GTEST_SKIP() << "CORPUS FOLDER NOT CHECKED: " << corpus << " is missing";
  test::TempDir repo;
  fs::copy(corpus, repo.path() / "test_tipc", fs::copy_options::recursive);
  repo.write("ppcls/__init__.py", "");
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs", "lite_train_lite_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  std::size_t plans = 0;
  for (std::size_t at = r.out.find("# "); at != std::string::npos; at = r.out.find("\n# ", at + 1)) ++plans;
  EXPECT_EQ(plans, 521u);
  EXPECT_NE(r.err.find("tipc-run: dialect paddleclas (marker ppcls/ found in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tipc-run: 4 of 525 configs invalid, left out: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("test_tipc/configs/ResNet/ResNet50_vd_train_linux_gpu_use_dali.txt:22: the file ends after 22 "
                       "non-empty lines"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace tipc::cli
