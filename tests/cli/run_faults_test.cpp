// Fault injection on whole runs (issue 8): stages that crash, close their output or fill
// the disk; tipc-run itself killed with SIGKILL and resumed; an output directory it
// cannot create; missing and unreadable configs and archives; 200 stages at once; and
// config values that a shell would execute.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run/journal_record.h"
#include "support/fake_config.h"
#include "support/fake_repo_run.h"
#include "support/run_binary.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::fake_config;
using Json = nlohmann::json;

class RunFaults : public test::FakeRepoTest {
 protected:
  // The fake config with `from` replaced by `to` in its text.
  std::string config_with(const std::string& train, const std::string& from, const std::string& to) {
    std::string text = fake_config(train);
    text.replace(text.find(from), from.size(), to);
    return text;
  }
  run::JournalEntry journal_stage(const std::string& id) const {
    const auto journal = run::Journal::load((output() / run::kJournalFileName).string());
    EXPECT_TRUE(journal) << journal.error().str();
    const auto last = journal ? journal->last_entries() : std::map<std::string, const run::JournalEntry*>{};
    return last.count(id) ? *last.at(id) : run::JournalEntry{};
  }
  // Processes whose working directory is the scratch repository: what the run left running.
  int processes_in_repo() const {
    int n = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      std::error_code ec;
      const fs::path cwd = fs::read_symlink(entry.path() / "cwd", ec);
      std::ifstream stat(entry.path() / "stat");
      std::string pid, comm, state;
      if (!ec && cwd == repo_.path() && stat >> pid >> comm >> state && state != "Z") ++n;
    }
    return n;
  }
  static constexpr const char* kTrain = "norm_train/gpus_-1/autocast_null/train";
};

TEST_F(RunFaults, StagesKilledBySigsegvOrSigkillFailNamingTheSignal) {
  for (const auto& [signal, name] : {std::pair{SIGSEGV, "Segmentation fault"}, std::pair{SIGKILL, "Killed"}}) {
    repo_.write("test_tipc/configs/fake.txt",
                fake_config("train.py --print started --signal " + std::to_string(signal)));
    const auto r = run();
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.out.find(std::string("FAIL        ") + kTrain), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("killed by signal " + std::to_string(signal) + " (" + name + ")"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SKIPPED     norm_train/gpus_-1/autocast_null/eval"), std::string::npos) << r.out;
    EXPECT_NE(test::slurp(output() / "norm_train_gpus_-1_autocast_null.log").find("started"), std::string::npos);
  }
}

TEST_F(RunFaults, AStageThatClosesItsOutputAndGoesOnIsWaitedForToItsEnd) {
  repo_.write("test_tipc/configs/fake.txt",
              fake_config("train.py --print before --close-stdout --sleep 1.5 --record rec.txt"));
  const auto r = run({"--only", "train"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(records(), 1) << "the train ran to its end";
  EXPECT_GE(journal_stage(kTrain).seconds, 1.5) << "its end is its exit, not the end of its output";
  EXPECT_NE(test::slurp(output() / "norm_train_gpus_-1_autocast_null.log").find("before"), std::string::npos);
}

TEST_F(RunFaults, AFullDiskFailsTheStageWhoseLogWasCutAndTipcRunCarriesOn) {
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --print-mb 8 --record rec.txt"));
  // A 2 MiB file size limit for tipc-run: its writes of the train's 8 MiB log fail (EFBIG).
  const std::string command = "cd " + test::shell_quote(repo_.path()) + " && ulimit -f 2048 && " +
                              test::shell_quote(test::tipc_run_binary()) +
                              " test_tipc/configs/fake.txt lite_train_lite_infer --gpus none > out.txt 2>&1";
  const int status = std::system(("bash -c " + test::shell_quote(command)).c_str());
  const std::string out = test::slurp(repo_.path() / "out.txt");
  ASSERT_TRUE(WIFEXITED(status)) << "tipc-run must not die of SIGXFSZ";
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_NE(out.find("log check: log incomplete (File too large)"), std::string::npos) << out;
  EXPECT_EQ(fs::file_size(output() / "norm_train_gpus_-1_autocast_null.log"), 2048u * 1024) << "cut at the limit";
  EXPECT_EQ(records(), 1) << "the stage itself was not blocked by its unwritable log";
  const Json report = Json::parse(test::slurp(output() / "report.json"));
  EXPECT_EQ(report["verdict"], "FAIL");
}

TEST_F(RunFaults, ARunKilledWithSigkillLeavesNoStageRunningAndResumesWithoutRerunningWhatPassed) {
  const std::string slow_infer = "inference:infer.py --record rec.txt --sleep 60";
  repo_.write("test_tipc/configs/fake.txt",
              config_with("train.py --record rec.txt", "inference:infer.py --record rec.txt", slow_infer));
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none", "-j", "1"});
  const fs::path infer_log =
      output() / "python_infer_norm_train_null_cpu_gpus_-1_usemkldnn_False_threads_1_precision_fp32_batchsize_1.log";
  for (int i = 0; i < 400 && !(records() == 3 && fs::exists(infer_log)); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_EQ(records(), 3) << "train, eval and export passed before the kill";
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  for (int i = 0; i < 100 && processes_in_repo() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(processes_in_repo(), 0) << "the running inference died with tipc-run";
  const std::string train_log = test::slurp(output() / "norm_train_gpus_-1_autocast_null.log");

  repo_.write("test_tipc/configs/fake.txt",
              config_with("train.py --record rec.txt", "inference:infer.py --record rec.txt",
                          "inference:infer.py --record rec.txt"));
  const auto resumed = run({"--resume"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_EQ(records(), 5) << "only the two CPU inferences ran again";
  EXPECT_EQ(test::slurp(output() / "norm_train_gpus_-1_autocast_null.log"), train_log) << "no log lost or rewritten";
  const Json report = Json::parse(test::slurp(output() / "report.json"));
  EXPECT_EQ(report["verdict"], "PARTIAL") << "the 2 GPU inferences could not run";
  EXPECT_EQ(report["counts"]["PASS"], 5);
  int resumed_stages = 0;
  for (const auto& stage : report["plans"][0]["stages"]) resumed_stages += stage["resumed"].get<bool>();
  EXPECT_EQ(resumed_stages, 3);
}

// A stage runs in its planned directory or not at all (issue 25). With a dialect whose
// inference runs in deploy/cpp/build, which nothing made, the inferences are UNRESOLVED with a
// reason naming the directory, and their program never runs (it used to run in the repository
// root, and pass). Compat writes the runner's `Run failed` line for each.
TEST_F(RunFaults, AStageWhoseWorkingDirectoryIsMissingNeverRunsAndIsUnresolved) {
  const fs::path configs = repo_.path() / "tipc-configs";
  fs::copy(test::source_dir() + "/configs", configs, fs::copy_options::recursive);
  std::string dialect = test::slurp(configs / "dialects/paddleocr.yaml");
  const std::string cwd_line = "  cwd: \".\"\n";
  dialect.replace(dialect.find(cwd_line, dialect.find("\ninfer:\n")), cwd_line.size(), "  cwd: deploy/cpp/build\n");
  std::ofstream(configs / "dialects/paddleocr.yaml") << dialect;
  const std::string reason = "could not start: cannot enter the working directory " +
                             (repo_.path() / "deploy/cpp/build").string() +
                             ": No such file or directory; no step of the plan makes it";

  const auto r = run({"--dialect-dir", (configs / "dialects").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(records(), 3) << "train, eval and export ran; neither CPU inference did";
  const Json report = Json::parse(test::slurp(output() / "report.json"));
  int unresolved = 0;
  for (const auto& stage : report["plans"][0]["stages"]) {
    if (stage["id"].get<std::string>().find("/infer/cpu") == std::string::npos) continue;
    EXPECT_EQ(stage["result"], "UNRESOLVED");
    EXPECT_EQ(stage["reason"], reason);
    ++unresolved;
  }
  EXPECT_EQ(unresolved, 2);

  const auto compat = run({"--dialect-dir", (configs / "dialects").string(), "--compat"});
  EXPECT_EQ(compat.exit_code, 0) << "the reference's exit status" << compat.out;
  EXPECT_EQ(records(), 6);
  const std::string status_log = test::slurp(output() / "results_python.log");
  const std::string infer_failed_line =
      "\033[33m Run failed with command - fake - " + test::fake_stage_binary() + " infer.py";
  int infer_failed = 0;
  std::istringstream lines(status_log);
  for (std::string line; std::getline(lines, line);) infer_failed += line.starts_with(infer_failed_line);
  EXPECT_EQ(infer_failed, 2) << status_log;
}

TEST_F(RunFaults, AnOutputDirectoryThatCannotBeMadeIsAnErrorBeforeAnyStageRuns) {
  repo_.write("test_tipc/output", "a file where the output directory belongs");
  const auto r = run();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("test_tipc/output"), std::string::npos) << r.err;
  EXPECT_EQ(records(), 0) << "nothing ran";
  EXPECT_EQ(test::slurp(repo_.path() / "test_tipc/output"), "a file where the output directory belongs");
}

TEST_F(RunFaults, AMissingOrUnreadableConfigOrArchiveIsAnErrorNamingIt) {
  const auto missing = test::run_tipc(repo_.path(), {"test_tipc/configs/nope.txt", "lite_train_lite_infer"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("test_tipc/configs/nope.txt"), std::string::npos) << missing.err;
  fs::create_directories(repo_.path() / "test_tipc/configs/dir.txt/inner");
  fs::copy_file(config_, repo_.path() / "test_tipc/configs/broken.txt");
  fs::resize_file(repo_.path() / "test_tipc/configs/broken.txt", 0);
  const auto empty = test::run_tipc(repo_.path(), {"test_tipc/configs/broken.txt", "lite_train_lite_infer"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("broken.txt"), std::string::npos) << empty.err;

  repo_.write("test_tipc/tipc-run.yaml",
              "data:\n  lite_train_lite_infer:\n    - {archive: lite.tar, destination: data, creates: a.txt}\n");
  const auto no_archive = run();
  EXPECT_EQ(no_archive.exit_code, 2) << no_archive.out;
  EXPECT_NE(no_archive.err.find("lite.tar"), std::string::npos) << no_archive.err;
  repo_.write("lite.tar", std::string(4096, '\x7f'));
  const auto garbage = run();
  EXPECT_EQ(garbage.exit_code, 2) << garbage.out;
  EXPECT_NE(garbage.err.find("lite.tar"), std::string::npos) << garbage.err;
  fs::remove(repo_.path() / "lite.tar");
  fs::create_directory(repo_.path() / "lite.tar");
  const auto directory = run();
  EXPECT_EQ(directory.exit_code, 2) << directory.out;
  EXPECT_NE(directory.err.find("lite.tar"), std::string::npos) << directory.err;
  EXPECT_EQ(records(), 0) << "no stage runs without its data";
  EXPECT_FALSE(fs::exists(repo_.path() / "data/a.txt"));
}

TEST_F(RunFaults, TwoHundredStagesRunAtOnce) {
  constexpr int kConfigs = 10;  // 20 CPU inferences each: threads 1..10 x batch sizes 1, 2
  for (int c = 0; c < kConfigs; ++c) {
    std::string text = config_with("train.py --record rec.txt", "inference:infer.py --record rec.txt",
                                   "inference:infer.py --barrier " + (repo_.path() / "barrier").string() + " " +
                                       std::to_string(kConfigs * 20) + " --record rec.txt");
    text.replace(text.find("model_name:fake"), 15, "model_name:fake" + std::to_string(c));
    text.replace(text.find("--cpu-threads:1"), 15, "--cpu-threads:1|2|3|4|5|6|7|8|9|10");
    repo_.write("test_tipc/configs/fake" + std::to_string(c) + ".txt", text);
  }
  fs::remove(config_);
  const auto r =
      test::run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--gpus", "none", "-j", "250"});
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0) << r.err;
  EXPECT_EQ(records(), kConfigs * 23);
  // Each inference waited at a barrier until all 200 had arrived: they ran at the same time.
  EXPECT_EQ(std::distance(fs::directory_iterator(repo_.path() / "barrier"), fs::directory_iterator()), kConfigs * 20);
}

// Values a shell would run: tipc-run runs the argv words as they are, in both modes.
TEST_F(RunFaults, ShellSyntaxInConfigValuesIsPassedLiterallyAndRunsNothing) {
  const std::string train =
      "train.py --record rec.txt --a=$(touch pwned1) --b=`touch pwned2` --c=x;touch pwned3 "
      "--d=\"q;touch pwned4\" '--e=$(touch pwned5)' --f=$HOME|touch pwned6";
  std::string text = fake_config(train);
  text.replace(text.find("--pretrained:null"), 17, "--pretrained:w;touch${IFS}pwned7");
  repo_.write("test_tipc/configs/fake.txt", text);
  for (const std::vector<std::string>& mode :
       {std::vector<std::string>{"--only", "train"}, std::vector<std::string>{"--only", "train", "--compat"}}) {
    const auto r = run(mode);
    EXPECT_EQ(records(), 1) << "the train ran";
    fs::remove(repo_.path() / "rec.txt");
    for (int i = 1; i <= 7; ++i) EXPECT_FALSE(fs::exists(repo_.path() / ("pwned" + std::to_string(i)))) << i;
    const std::string log = test::slurp(output() / "norm_train_gpus_-1_autocast_null.log");
    for (const char* word : {"arg --a=$(touch", "arg --b=`touch", "arg --c=x;touch", "arg --e=$(touch pwned5)",
                             "arg --pretrained=w;touch${IFS}pwned7"}) {
      EXPECT_NE(log.find(word), std::string::npos) << word << " in\n" << log;
    }
    EXPECT_NE(r.err.find("tipc-run passes them literally"), std::string::npos) << r.err;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
