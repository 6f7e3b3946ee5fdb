// Folders of configs: the invalid ones are reported and left out, the valid ones run.
#include "cli/suite.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "cli/project.h"
#include "support/copy_tree.h"
#include "support/fake_repo_run.h"
#include "support/junit_xml.h"
#include "support/paths.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// A folder of three configs: fake.txt and fake2.txt are valid, bad.txt misses its line 17.
class ConfigFolder : public test::FakeRepoTest {
 protected:
  void SetUp() override {
    FakeRepoTest::SetUp();
    write_second_config();
    write_config_missing_line_17("bad.txt");
  }
  static constexpr const char* kBadLine = "test_tipc/configs/bad.txt:17";
};

TEST_F(ConfigFolder, TheValidConfigsRunAndTheInvalidOneIsReportedEverywhereWithItsLine) {
  const auto r = run_folder();
  EXPECT_EQ(r.exit_code, 2) << "every stage that ran passed; an invalid config is a config error\n" << r.out << r.err;
  EXPECT_EQ(records(), 10) << "train, eval, export and two CPU inferences of each valid config";
  EXPECT_NE(r.err.find(std::string("tipc-run: error: ") + kBadLine +
                       ": line 17 seems to be missing: expected key "
                       "'pact_train'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tipc-run: 1 of 3 configs invalid, left out: test_tipc/configs/bad.txt\n"), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("tipc-run: 1 of 3 configs invalid, left out: test_tipc/configs/bad.txt\n"), std::string::npos)
      << "the end of the console says it again\n"
      << r.out;

  const fs::path reports = repo_.path() / "test_tipc/output";
  const auto json = nlohmann::json::parse(test::slurp(reports / "report.json"));
  EXPECT_EQ(json["exit_code"], 2);
  EXPECT_EQ(json["plans"].size(), 2u);
  // One problem, at the gap: the lines below the missing one are not reported one by one.
  std::size_t console_errors = 0;
  for (auto at = r.err.find("tipc-run: error: "); at != std::string::npos;
       at = r.err.find("tipc-run: error: ", at + 1)) {
    ++console_errors;
  }
  ASSERT_EQ(console_errors, 1u) << r.err;
  ASSERT_EQ(json["invalid_configs"].size(), 1u);
  EXPECT_EQ(json["invalid_configs"][0]["file"], "test_tipc/configs/bad.txt");
  EXPECT_EQ(json["invalid_configs"][0]["line"], 17);
  EXPECT_EQ(json["invalid_configs"][0]["key"], "pact_train") << "the key of the missing line";

  const auto junit = test::read_junit(test::slurp(reports / "junit.xml"));
  EXPECT_EQ(junit.errors, "");
  const auto invalid = std::find_if(junit.cases.begin(), junit.cases.end(),
                                    [](const test::JunitCase& c) { return c.classname == "invalid-config"; });
  ASSERT_NE(invalid, junit.cases.end());
  EXPECT_EQ(invalid->name, kBadLine);
  EXPECT_EQ(invalid->outcome, "error");
  EXPECT_EQ(std::count_if(junit.cases.begin(), junit.cases.end(),
                          [](const test::JunitCase& c) { return c.classname == "invalid-config"; }),
            1);
  EXPECT_NE(invalid->message.find("line 17 seems to be missing"), std::string::npos) << invalid->message;
  EXPECT_NE(test::slurp(reports / "summary.md")
                .find("| `test_tipc/configs/bad.txt` | 17 | `pact_train` | line 17 seems to be missing"),
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
  const auto first = r.err.find("MODE 'lite_train_infer': no config of this directory takes it");
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("MODE 'lite_train_infer'", first + 1), std::string::npos) << r.err;
}

// An unknown MODE of a directory names, once, the MODEs its configs take: those of each
// config's chain in configs/chains.yaml (benchmark_train is a chain of train_params configs
// in that MODE; the demo's other configs are of the ONNX, serving and C++ chains).
TEST(SuiteModes, AnUnknownModeNamesTheModesTheConfigsTakeOnce) {
  const auto r = test::run_tipc(test::source_dir(), {"test_tipc/configs", "bogus_mode", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tipc-run: error: MODE 'bogus_mode': no config of this directory takes it (no chain of "
                       "chains.yaml has it; its configs take: benchmark_train, lite_train_lite_infer, "
                       "lite_train_whole_infer, whole_train_whole_infer, whole_infer, klquant_whole_infer, "
                       "paddle2onnx_infer, cpp_infer, serving_infer)\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// "model#id" of every stage a --dry-run lists, under its "# config: model mode" header.
std::set<std::string> dry_run_stages(const std::string& text) {
  std::set<std::string> stages;
  std::istringstream in(text);
  std::string model;
  for (std::string line; std::getline(in, line);) {
    // "# CONFIG: MODEL MODE (...)"
    if (line.starts_with("# ")) {
      const std::size_t at = line.find(": ") + 2;
      model = line.substr(at, line.find(' ', at) - at);
    }
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
  const auto nowhere =
      test::run_tipc(repo_.path(), {"report", (output / "fake").string(), (output / "fake2").string()});
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.err.find("say where it goes with --output DIR"), std::string::npos) << nowhere.err;
}

TEST_F(ConfigFolder, AShardWithoutAConfigSaysSoAndRanNothing) {
  const auto r = run_folder({"--shard", "3/3"});
  EXPECT_EQ(r.exit_code, 2) << "nothing ran, and bad.txt is invalid: a config error\n" << r.out << r.err;
  EXPECT_NE(r.out.find("tipc-run: shard 3/3 holds no config (2 configs for 3 shards): nothing ran\n"),
            std::string::npos)
      << r.out;
  fs::remove(repo_.path() / "test_tipc/configs/bad.txt");
  EXPECT_EQ(run_folder({"--shard", "3/3"}).exit_code, 5);
  EXPECT_EQ(run_folder({"--shard", "3/3", "--allow-nothing"}).exit_code, 0);
  EXPECT_EQ(records(), 0);
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
  EXPECT_NE(r.out.find("tipc-run: 3 configs share an output directory with another config"), std::string::npos)
      << r.out;
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
  test::copy_tree(corpus, repo.path() / "test_tipc");
  repo.write("ppcls/__init__.py", "");
  const auto r = test::run_tipc(repo.path(), {"test_tipc/configs", "lite_train_lite_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  std::size_t plans = 0;
  for (std::size_t at = r.out.find("# "); at != std::string::npos; at = r.out.find("\n# ", at + 1)) ++plans;
  EXPECT_EQ(plans, 521u);
  EXPECT_NE(r.err.find("tipc-run: dialect paddleclas (marker ppcls/ found in"), std::string::npos) << r.err;
  // Every chain's configs are collected (issue 39): the 9 dy2static configs take the MODE too,
  // and are refused here for want of their runner (the folder holds configs only); the 123
  // configs of chains without the MODE are counted by chain.
  EXPECT_NE(r.err.find("tipc-run: 13 of 534 configs invalid, left out: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("chain train_dy2static_python: no runner (test_train_dy2static_python.sh)"), std::string::npos);
  EXPECT_NE(r.err.find("tipc-run: 123 configs take none of the MODEs lite_train_lite_infer, not run: 31 inference_cpp "
                       "(cpp_infer); 11 lite_arm_cpp (lite_infer); 19 paddle2onnx (paddle2onnx_infer); 31 "
                       "serving_infer_cpp (serving_infer); 31 serving_infer_python (serving_infer)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("test_tipc/configs/ResNet/ResNet50_vd_train_linux_gpu_use_dali.txt:22: the file ends after 22 "
                       "non-empty lines"),
            std::string::npos)
      << r.err;
}

// The demo's configs as a Windows editor saves them: a byte-order mark, CRLF line ends.
std::string windows_copy(const std::string& text) {
  std::string out = "\xEF\xBB\xBF";
  for (const char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

// One reader for chain detection and planning (issue 24): a BOM+CRLF config plans as its
// plain twin under --plan-from auto (the chain picked by its header) and dialect, with a
// warning about the CRs the reference would keep.
TEST(ConfigReader, ABomCrlfConfigPlansAsItsPlainTwinWhateverPlansIt) {
  const std::string source = test::source_dir() + "/test_tipc/configs/";
  test::TempDir plain, windows;
  for (auto* repo : {&plain, &windows}) repo->write("test_tipc/tipc-run.yaml", "dialect: paddleocr\n");
  const std::vector<std::pair<std::string, std::string>> configs = {{"alexnet.txt", "lite_train_lite_infer"},
                                                                    {"alexnet_serving.txt", "serving_infer"}};
  for (const auto& [name, mode] : configs) {
    plain.write("test_tipc/configs/" + name, test::slurp(source + name));
    windows.write("test_tipc/configs/" + name, windows_copy(test::slurp(source + name)));
    for (const std::string from : {"auto", "dialect"}) {
      const std::vector<std::string> args = {"test_tipc/configs/" + name, mode, "--dry-run", "--plan-from", from};
      const auto want = test::run_tipc(plain.path(), args);
      const auto got = test::run_tipc(windows.path(), args);
      ASSERT_EQ(want.exit_code, 0) << name << " " << from << "\n" << want.err;
      EXPECT_EQ(got.exit_code, 0) << name << " " << from << "\n" << got.err;
      EXPECT_EQ(got.out, want.out) << name << " " << from;
      EXPECT_NE(got.err.find("lines end in CR LF: tipc-run removes the CR"), std::string::npos) << got.err;
    }
  }
}

// The runner is traced with the file as it is; the chain that names the runner is picked by
// the decoded header, so a byte-order mark no longer hides it.
TEST(ConfigReader, ABomConfigIsTracedByItsChainsRunner) {
  test::TempDir repo, cache;
  setenv("TIPC_TRACE_CACHE", cache.path().c_str(), 1);
  repo.write("test_tipc/test_train_inference_python.sh", "cmd=\"python3 train.py --config $1\"\neval $cmd\n");
  repo.write("test_tipc/configs/bom.txt",
             "\xEF\xBB\xBF===========================train_params=================="
             "=========\r\nmodel_name:m\r\n");
  for (const std::string from : {"auto", "runner"}) {
    const auto run = test::run_tipc(
        repo.path(), {"test_tipc/configs/bom.txt", "lite_train_lite_infer", "--dry-run", "--plan-from", from});
    EXPECT_EQ(run.exit_code, 0) << from << "\n" << run.err;
    EXPECT_NE(run.out.find("train.py --config test_tipc/configs/bom.txt"), std::string::npos) << run.out;
  }
  unsetenv("TIPC_TRACE_CACHE");
}

TEST_F(ConfigFolder, ABomConfigIsOneOfTheFolders) {
  repo_.write("test_tipc/configs/fake2.txt", windows_copy(test::slurp(repo_.path() / "test_tipc/configs/fake2.txt")));
  const auto r = run_folder({"--dry-run"});
  EXPECT_NE(r.out.find("# test_tipc/configs/fake2.txt: fake2 lite_train_lite_infer"), std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.err.find("1 of 3 configs invalid"), std::string::npos) << r.err;
}

// Each config is read once per run: what the planners see is the text read when the
// configs were listed, whatever the file holds later.
TEST_F(ConfigFolder, EveryPlannerTakesTheTextReadOnceNotTheFile) {
  const std::string folder = (repo_.path() / "test_tipc/configs").string();
  const auto files = plan::config_files(folder, test::shipped_chains());
  ASSERT_TRUE(files) << files.error().str();
  ASSERT_EQ(files->size(), 3u);
  for (const auto& file : *files) repo_.write(fs::relative(file.path, repo_.path()).string(), "rewritten:1\n");
  ProjectRequest project_request;
  project_request.config = folder;
  const auto project = load_project(project_request);
  ASSERT_TRUE(project) << project.error().str();
  SuiteRequest request;
  request.modes = {"lite_train_lite_infer"};
  request.mode = "lite_train_lite_infer";
  const auto suite = plan_configs(*files, *project, request);
  ASSERT_TRUE(suite) << suite.error().str();
  ASSERT_EQ(suite->plans.size(), 2u);
  EXPECT_EQ(suite->plans[0].model_name, "fake");
  EXPECT_EQ(suite->invalid_files, std::vector<std::string>{folder + "/bad.txt"});
}

// `--seed 42` without its colon would vanish from the command: the config is invalid, with
// its line and the fix, and the others still plan.
TEST_F(ConfigFolder, AParameterLineWithoutAColonMakesOnlyItsConfigInvalid) {
  const std::string fake2 = test::slurp(repo_.path() / "test_tipc/configs/fake2.txt");
  repo_.write("test_tipc/configs/fake2.txt", fake2.substr(0, fake2.find("null:null\n##\n")) + "--seed 42\n##\n" +
                                                 fake2.substr(fake2.find("null:null\n##\n") + 12));
  const auto r = run_folder({"--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("tipc-run: error: test_tipc/configs/fake2.txt:13: no ':' in this line: the runner reads it all "
                       "as a key with an empty value, so the parameter disappears from every command; write it as "
                       "KEY:VALUE ('--seed:42')"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("2 of 3 configs invalid"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("# test_tipc/configs/fake.txt: fake lite_train_lite_infer"), std::string::npos) << r.out;
}

// A missing data archive is a planning error: named with the settings file and line, and
// --dry-run fails on it before printing a plan.
TEST_F(ConfigFolder, AMissingDataArchiveFailsTheDryRunWithTheSettingsLine) {
  repo_.write("test_tipc/tipc-run.yaml",
              "data:\n  all:\n    - {archive: lite_data/x.tar, destination: lite_data, "
              "creates: x}\n");
  const auto r = run_folder({"--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("test_tipc/tipc-run.yaml:3: the data archive 'lite_data/x.tar' of mode lite_train_lite_infer "
                       "is not a file under"),
            std::string::npos)
      << r.err;
}

// Issue 38: configs their own runner completes were refused by the output check. A runner as
// paper reproductions write them: the trainer from the config's line 4, run through eval.
class RunnerOfItsOwn : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("TIPC_TRACE_CACHE", cache_.path().c_str(), 1);
    repo_.write("test_tipc/configs/m.txt",
                "===========================train_params===========================\nmodel_name:m\npython:python3\n"
                "norm_train:train.py\n");
  }
  void TearDown() override { unsetenv("TIPC_TRACE_CACHE"); }
  void write_runner(const std::string& body) {
    repo_.write("test_tipc/test_train_inference_python.sh",
                "trainer=$(sed -n 4p $1 | cut -d: -f2)\nLOG_PATH=./test_tipc/output/m\nmkdir -p $LOG_PATH\n"
                "status_log=${LOG_PATH}/results_python.log\n" +
                    body);
  }
  test::RunResult run(std::vector<std::string> extra) {
    std::vector<std::string> args = {"test_tipc/configs/m.txt", "lite_train_lite_infer"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tipc(repo_.path().string(), args);
  }
  // Start and end (seconds) of the fake stage that wrote `record`.
  std::pair<double, double> ran(const std::string& record) const {
    std::istringstream line(test::slurp(repo_.path() / record));
    std::string pid, pgid;
    double start = 0, end = 0;
    line >> pid >> pgid >> start >> end;
    return {start, end};
  }
  test::TempDir repo_, cache_;
};

// The train names no output directory the trace could see: its model directory was its own
// log (`stage tipc_stage_1/train would write test_tipc/output/tipc_stage_1.log, which stage
// tipc_stage_1/train writes too`).
TEST_F(RunnerOfItsOwn, ATrainThatNamesNoOutputDoesNotClashWithItself) {
  write_runner("cmd=\"python3 ${trainer} --epochs=1\"\neval $cmd\n");
  for (const char* mode : {"--plan-from=runner", "--compat"}) {
    const auto r = run({"--dry-run", mode});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err.find("writes too"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("python3 train.py --epochs=1"), std::string::npos) << r.out;
  }
}

// Both trains save to a path their line hard-codes; the runner runs them one after the other,
// each eval reading what the train before it saved.
constexpr const char* kTwoTrainsOfOneOutput =
    "for n in 1 2; do\n"
    "  cmd=\"python3 ${trainer} --output=exp/default --record rec_train_${n}.txt --sleep 0.2\"\n"
    "  eval \"$cmd > ${LOG_PATH}/train_${n}.log 2>&1\"\n"
    "  echo \" Run successfully with command - ${cmd}\" >> ${status_log}\n"
    "  cmd=\"python3 eval.py --weights=exp/default/best.pdparams --record rec_eval_${n}.txt --sleep 0.2\"\n"
    "  eval \"$cmd > ${LOG_PATH}/eval_${n}.log 2>&1\"\n"
    "  echo \" Run successfully with command - ${cmd}\" >> ${status_log}\n"
    "done\n";

TEST_F(RunnerOfItsOwn, TwoTrainsOfOneOutputArePlannedInTheRunnersOrderWithOneWarning) {
  write_runner(kTwoTrainsOfOneOutput);
  for (const char* mode : {"--plan-from=runner", "--compat"}) {
    const auto r = run({"--dry-run", mode});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::string warning =
        "tipc-run: warning: test_tipc/configs/m.txt: exp/default is written by train_1/train, then train_2/train, "
        "whose output stays: stages that write one output run one at a time in the runner's order, each with its "
        "own log, as the runner runs them\n";
    const auto at = r.err.find(warning);
    EXPECT_NE(at, std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("exp/default", at + warning.size()), std::string::npos) << "one warning\n" << r.err;
    // An order, not a dependency: the second train reads nothing the first wrote (issue 38, item 3).
    EXPECT_NE(r.out.find("log test_tipc/output/m/train_2.log  once ended train_1/train, train_1/eval\n"),
              std::string::npos)
        << r.out;
  }
}

TEST_F(RunnerOfItsOwn, TwoTrainsOfOneOutputRunOneAfterTheOtherEachWithItsOwnLog) {
  write_runner(kTwoTrainsOfOneOutput);
  const auto r = run({"--gpus", "none", "-j", "4", "--python", test::fake_stage_binary()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 passed"), std::string::npos) << r.out;
  EXPECT_GE(ran("rec_train_2.txt").first, ran("rec_eval_1.txt").second)
      << "the second train starts once the eval reading the first one's output has ended, though 4 jobs were free";
  EXPECT_GE(ran("rec_eval_2.txt").first, ran("rec_train_2.txt").second);
  for (const char* log : {"train_1.log", "train_2.log"}) {
    EXPECT_NE(test::slurp(repo_.path() / "test_tipc/output/m" / log).find("arg --output=exp/default"),
              std::string::npos)
        << log;
  }
}

// The corpus's paper reproductions (../shared/tipc-corpus-longtail): NAFNet-pd's train names
// no output option; CAN_Paddle's runner trains twice, neither with one.
TEST(LongtailCorpus, TrainsWithoutAnOutputOptionAreNotRefused) {
  const fs::path corpus = test::shared_dir() + "/tipc-corpus-longtail";
  if (!fs::exists(corpus)) GTEST_SKIP() << "LONGTAIL CORPUS NOT CHECKED: " << corpus << " is missing";
  test::TempDir cache;
  setenv("TIPC_TRACE_CACHE", cache.path().c_str(), 1);
  for (const auto& [repo, config] : {std::pair{"NAFNet-pd", "test_tipc/configs/NAFNet/train_infer_python.txt"},
                                     std::pair{"CAN_Paddle", "test_tipc/configs/can/train_infer_python.txt"}}) {
    test::TempDir root;
    for (const char* part : {"runners", "configs"}) {
      test::copy_tree(corpus / part / repo, root.path());
    }
    for (const char* mode : {"--plan-from=auto", "--compat"}) {
      const auto r = test::run_tipc(root.path().string(), {config, "lite_train_lite_infer", "--dry-run", mode});
      EXPECT_EQ(r.exit_code, 0) << repo << "\n" << r.err;
      EXPECT_EQ(r.err.find("writes too"), std::string::npos) << repo << "\n" << r.err;
    }
  }
  unsetenv("TIPC_TRACE_CACHE");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
