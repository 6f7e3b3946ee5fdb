// Folders of configs: the invalid ones are reported and left out, the valid ones run.
#include "cli/suite.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_repo_run.h"
#include "support/junit_xml.h"

namespace tipc::cli {
namespace {
namespace fs = std::filesystem;

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
  EXPECT_NE(r.out.find("# fake lite_train_lite_infer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# fake2 lite_train_lite_infer"), std::string::npos) << r.out;
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

// "model#id" of every stage a --dry-run lists, under its "# model mode" header.
std::set<std::string> dry_run_stages(const std::string& text) {
  std::set<std::string> stages;
  std::istringstream in(text);
  std::string model;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("# ")) model = line.substr(2, line.find(' ', 2) - 2);
    if (line.starts_with("[")) stages.insert(model + "#" + line.substr(line.find("] ") + 2));
  }
  return stages;
}

// "model#id" of every stage of a report.json, and how many there were.
std::pair<std::set<std::string>, std::size_t> report_stages(const fs::path& report) {
  std::set<std::string> stages;
  std::size_t count = 0;
  const auto json = nlohmann::json::parse(test::slurp(report));
  for (const auto& plan : json["plans"]) {
    for (const auto& stage : plan["stages"]) {
      stages.insert(plan["model"].get<std::string>() + "#" + stage["id"].get<std::string>());
      ++count;
    }
  }
  return {stages, count};
}

// --shard K/N: whole configs, the N shards' union is the plan, `tipc-run report A B` merges them.
TEST_F(ConfigFolder, TheShardsRunWholeConfigsOnceEachAndTheirReportsMergeIntoOne) {
  fs::remove(repo_.path() / "test_tipc/configs/bad.txt");
  const auto plan = dry_run_stages(run_folder({"--dry-run"}).out);
  ASSERT_EQ(plan.size(), 14u);
  const fs::path output = repo_.path() / "test_tipc/output";
  const auto first = run_folder({"--shard", "1/2"});
  EXPECT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("tipc-run: shard 1/2: 1 of 2 configs, 7 stages\n"), std::string::npos) << first.out;
  EXPECT_EQ(run_folder({"--shard", "2/2"}).exit_code, 0);
  const auto [one, one_count] = report_stages(output / "fake/lite_train_lite_infer/report.json");
  const auto [two, two_count] = report_stages(output / "fake2/lite_train_lite_infer/report.json");
  std::set<std::string> both = one;
  both.insert(two.begin(), two.end());
  EXPECT_EQ(both, plan);
  EXPECT_EQ(one_count + two_count, plan.size()) << "disjoint";

  const auto merged = test::run_tipc(repo_.path(), {"report", (output / "fake").string(), (output / "fake2").string(),
                                                    "--output", (repo_.path() / "merged").string()});
  EXPECT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  const auto [all, all_count] = report_stages(repo_.path() / "merged/report.json");
  EXPECT_EQ(all, plan);
  EXPECT_EQ(all_count, plan.size()) << "every stage once";
  EXPECT_EQ(test::read_junit(test::slurp(repo_.path() / "merged/junit.xml")).cases.size(), plan.size());

  const auto twice = test::run_tipc(repo_.path(), {"report", (output / "fake").string(), (output / "fake").string(),
                                                   "--output", (repo_.path() / "twice").string()});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("test_tipc/configs/fake.txt in mode lite_train_lite_infer is also in"), std::string::npos)
      << twice.err;
  const auto nowhere = test::run_tipc(repo_.path(), {"report", (output / "fake").string(), (output / "fake2").string()});
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.err.find("say where it goes with --output DIR"), std::string::npos) << nowhere.err;
}

TEST_F(ConfigFolder, AShardWithoutAConfigSaysSoAndRanNothing) {
  const auto r = run_folder({"--shard", "3/3"});
  EXPECT_EQ(r.exit_code, 1) << "nothing ran\n" << r.out << r.err;
  EXPECT_NE(r.out.find("tipc-run: shard 3/3 holds no config (2 configs for 3 shards): nothing ran\n"), std::string::npos)
      << r.out;
  fs::remove(repo_.path() / "test_tipc/configs/bad.txt");
  EXPECT_EQ(run_folder({"--shard", "3/3"}).exit_code, 1);
  EXPECT_EQ(run_folder({"--shard", "3/3", "--allow-nothing"}).exit_code, 0);
  EXPECT_EQ(records(), 0);
}

TEST(SuiteExitCode, AnInvalidConfigNeverLetsARunExitZero) {
  Suite clean, invalid;
  invalid.invalid_files = {"bad.txt"};
  EXPECT_EQ(suite_exit_code(clean, kExitPassed), kExitPassed);
  EXPECT_EQ(suite_exit_code(invalid, kExitPassed), kExitUsage);
  EXPECT_EQ(suite_exit_code(invalid, kExitFailed), kExitFailed) << "a failed stage says more";
  EXPECT_EQ(suite_exit_code(invalid, kExitInterrupted), kExitInterrupted);
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
