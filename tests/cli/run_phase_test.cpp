// tipc-run's verdict and exit code over whole runs of the real binary: a run in which
// nothing ran is no pass, a partial pass says so in every report, a filtered rerun keeps
// the earlier failures of the whole plan, and one run per output directory at a time.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run/journal.h"
#include "run/output_lock.h"
#include "support/fake_config.h"
#include "support/fake_repo_run.h"
#include "support/run_binary.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::fake_config;

constexpr const char* kPartial = "PASS (partial: 2 of 7 stages could not run)";  // the 2 GPU inferences

class RunPhase : public test::FakeRepoTest {
 protected:
  Json report_json() const { return Json::parse(test::slurp(output() / "report.json")); }
  std::string last_line(const std::string& text) const {
    const std::string trimmed = text.substr(0, text.find_last_not_of('\n') + 1);
    return trimmed.substr(trimmed.rfind('\n') + 1);
  }
  // Waits until the run `pid` holds the output directory.
  bool wait_for_holder(pid_t pid) const {
    const std::string holder = "pid " + std::to_string(pid) + ",";
    for (int i = 0; i < 2000; ++i) {
      if (run::lock_holder(output().string()).starts_with(holder)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  pid_t start_slow_run() {
    repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --record rec.txt --sleep 2"));
    return test::start_tipc(repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"});
  }
};

TEST_F(RunPhase, ARunInWhichEveryStageWasUnsupportedFailsUnlessNothingIsAllowed) {
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --record rec.txt", "0"));  // a GPU train
  const auto r = run();
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_EQ(records(), 0);
  EXPECT_EQ(last_line(r.out),
            "tipc-run: nothing could run here: 7 stages: needs 1 GPU; none available (--gpus) "
            "(exit 5; --allow-nothing accepts it)");
  // The GPU train and its dependents count under the train's reason, alike in every output.
  EXPECT_NE(r.out.find("tipc-run: 7 stages could not run here:\n  7 stages (needs 1 GPU; none available (--gpus)): "),
            std::string::npos)
      << r.out;
  const std::string why = "nothing could run here: 7 stages: needs 1 GPU; none available (--gpus)";
  EXPECT_EQ(report_json()["explanation"], why);
  EXPECT_NE(test::slurp(output() / "summary.md").find("**" + why + "**"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "report.html").find("<p class=\"why\">" + why + "</p>"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "junit.xml").find("<property name=\"verdict_explanation\" value=\"" + why + "\"/>"),
            std::string::npos);
  EXPECT_EQ(report_json()["verdict"], "NOTHING RAN");
  EXPECT_EQ(report_json()["exit_code"], 5);

  const auto allowed = run({"--allow-nothing"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_NE(last_line(allowed.out).find("(accepted: --allow-nothing)"), std::string::npos) << allowed.out;
  const auto report = test::run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(report.exit_code, 5) << report.out;
  EXPECT_NE(report.out.find("NOTHING RAN (7 of 7 stages could not run)"), std::string::npos) << report.out;
  const auto strict = run({"--strict"});
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  EXPECT_NE(last_line(strict.out).find("(exit 1: --strict)"), std::string::npos) << strict.out;
}

TEST_F(RunPhase, ASelectionOfNothingIsAUsageErrorUnlessNothingIsAllowed) {
  const auto r = run({"-k", "no-such-stage"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("-k 'no-such-stage' selects none of the 7 planned stages"), std::string::npos) << r.err;
  const auto allowed = run({"-k", "no-such-stage", "--allow-nothing"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_NE(allowed.out.find("tipc-run: nothing ran: no stage was planned or selected (accepted: --allow-nothing)"),
            std::string::npos)
      << allowed.out;
  EXPECT_EQ(records(), 0);
}

TEST_F(RunPhase, APartialPassSaysSoInEveryReport) {
  const auto r = run();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(last_line(r.out),
            std::string("tipc-run: ") + kPartial + ": could not run: 2 stages: needs 1 GPU; none available (--gpus)");
  const Json json = report_json();
  EXPECT_EQ(json["verdict"], "PARTIAL");
  EXPECT_EQ(json["headline"], kPartial);
  EXPECT_EQ(json["could_not_run"], 2);
  EXPECT_EQ(json["exit_code"], 0);
  EXPECT_NE(test::slurp(output() / "summary.md").find(std::string("## ⚠️ tipc-run: ") + kPartial),
            std::string::npos);
  const std::string html = test::slurp(output() / "report.html");
  EXPECT_NE(html.find(std::string("<header class=\"banner partial\">")), std::string::npos);
  EXPECT_NE(html.find(std::string("<h1>") + kPartial + "</h1>"), std::string::npos);
  const std::string junit = test::slurp(output() / "junit.xml");
  EXPECT_NE(junit.find(std::string("<testsuites name=\"tipc-run: ") + kPartial + "\""), std::string::npos) << junit;
  EXPECT_NE(junit.find(std::string("<property name=\"verdict\" value=\"") + kPartial + "\"/>"), std::string::npos);
}

TEST_F(RunPhase, AFilteredRerunOfAPassingStageKeepsTheEarlierFailureInEveryVerdict) {
  fs::remove(repo_.path() / "eval-ok");  // the eval fails
  const auto failing = run();
  ASSERT_EQ(failing.exit_code, 1) << failing.out << failing.err;
  const double first_run = report_json()["started"];

  const auto rerun = run({"-k", "*/autocast_null/train"});
  EXPECT_EQ(rerun.exit_code, 1) << "the whole plan still fails\n" << rerun.out << rerun.err;
  EXPECT_EQ(last_line(rerun.out), "tipc-run: FAIL (1 of 7 stages failed, 1 of them in an earlier run)") << rerun.out;
  const Json json = report_json();
  EXPECT_EQ(json["verdict"], "FAIL");
  const Json& stages = json["plans"][0]["stages"];
  ASSERT_EQ(stages.size(), 7u) << "the whole plan";
  for (const auto& stage : stages) {
    if (stage["id"] == "norm_train/gpus_-1/autocast_null/eval") {
      EXPECT_EQ(stage["result"], "FAIL");
      EXPECT_DOUBLE_EQ(stage["earlier_run"]["started"].get<double>(), first_run);
    } else if (stage["id"] == "norm_train/gpus_-1/autocast_null/train") {
      EXPECT_EQ(stage["earlier_run"], nullptr) << "the rerun's own";
    }
  }
  EXPECT_NE(test::slurp(output() / "summary.md").find("(from an earlier run at "), std::string::npos);
  const auto report = test::run_tipc(repo_.path(), {"report", output().string()});
  EXPECT_EQ(report.exit_code, 1) << report.out << report.err;
  EXPECT_NE(report.out.find(": FAIL (1 of 7 stages failed, 1 of them in an earlier run):"), std::string::npos)
      << report.out;
}

TEST_F(RunPhase, ASecondRunOnTheSameOutputWaitsForTheFirstOrRefusesWithNoWait) {
  const pid_t first = start_slow_run();
  ASSERT_TRUE(wait_for_holder(first));
  const auto refused = run({"--no-wait"});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("is in use by another tipc-run (pid " + std::to_string(first) + ", started "),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("command: tipc-run test_tipc/configs/fake.txt lite_train_lite_infer"), std::string::npos)
      << refused.err;

  const auto second = run();
  EXPECT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_NE(second.err.find("waiting for it to finish"), std::string::npos) << second.err;
  int status = -1;
  waitpid(first, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The second run started after the first run's last stage ended.
  const auto journal = run::Journal::load((output() / run::kJournalFileName).string());
  ASSERT_TRUE(journal && !journal->runs_started.empty());
  const run::RunStartedLine& second_start = journal->runs_started.front();  // the first run's was compacted away
  double first_end = 0;
  for (const run::JournalEntry& entry : journal->entries) {
    if (entry.run_id != second_start.run_id && entry.started) {
      first_end = std::max(first_end, *entry.started + entry.seconds);
    }
  }
  EXPECT_GT(first_end, 0) << "the first run's results are in the journal";
  EXPECT_GE(second_start.started, first_end);
}

TEST_F(RunPhase, ARunKilledWithSigkillReleasesItsOutputDirectory) {
  const pid_t first = start_slow_run();
  ASSERT_TRUE(wait_for_holder(first));
  kill(first, SIGKILL);
  waitpid(first, nullptr, 0);
  repo_.write("test_tipc/configs/fake.txt", fake_config());
  const auto next = run({"--no-wait"});
  EXPECT_EQ(next.exit_code, 0) << next.out << next.err;
  EXPECT_EQ(next.err.find("in use"), std::string::npos) << next.err;
}

// A prepare.sh that ignores SIGTERM (and SIGINT), and records its pid.
constexpr const char* kStubbornPrepare = "trap '' TERM INT\necho $$ > prepare.pid\nwhile :; do sleep 0.1; done\n";

pid_t recorded_pid(const fs::path& file) {
  for (int i = 0; i < 400 && (!fs::exists(file) || fs::file_size(file) == 0); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return static_cast<pid_t>(std::atoi(test::slurp(file.string()).c_str()));
}

TEST_F(RunPhase, APrepareScriptThatIgnoresSigtermIsKilledAtItsTimeout) {
  repo_.write("test_tipc/tipc-run.yaml", "timeouts: {grace: 0.2}\n");
  repo_.write("test_tipc/prepare.sh", kStubbornPrepare);
  const auto r = run({"--prepare-script", "--timeout", "0.5"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("test_tipc/prepare.sh failed (timed out after 0.5 s); see " +
                       (repo_.path() / "test_tipc/output/prepare.log").string()),
            std::string::npos)
      << r.err;
  EXPECT_EQ(records(), 0) << "no stage runs after a failed prepare.sh";
  const pid_t script = recorded_pid(repo_.path() / "prepare.pid");
  ASSERT_GT(script, 0);
  EXPECT_NE(kill(script, 0), 0) << "prepare.sh outlived tipc-run";
}

TEST_F(RunPhase, AnInterruptStopsAPrepareScriptThatIgnoresSigterm) {
  repo_.write("test_tipc/tipc-run.yaml", "timeouts: {grace: 0.2}\n");
  repo_.write("test_tipc/prepare.sh", kStubbornPrepare);
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none", "--prepare-script"});
  const pid_t script = recorded_pid(repo_.path() / "prepare.pid");
  ASSERT_GT(script, 0);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_NE(kill(script, 0), 0) << "prepare.sh outlived tipc-run";
  EXPECT_EQ(records(), 0);
}

// Every stage passes, but what the reports and --resume read was not written: no PASS.
// (Tests run as root, whom file modes do not stop: a directory where the journal goes
// does, and /dev/full fails writes as a full disk does.)
TEST_F(RunPhase, AJournalThatCannotBeWrittenFailsAPassingRunNamingTheFile) {
  const fs::path journal = output() / run::kJournalFileName;
  fs::create_directories(journal / "x");
  const auto r = run();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("tipc-run: error: cannot write " + journal.string() + ": Is a directory; "), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("tipc-run: no reports: cannot write " + journal.string()), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("tipc-run: error: this run's results were not all recorded: cannot write " + journal.string()),
            std::string::npos)
      << r.err;
  EXPECT_EQ(records(), 5) << "the stages still ran";
}

TEST_F(RunPhase, AJournalOfANewerTipcRunStopsTheRunBeforeAnyStageNamingIt) {
  const fs::path journal = output() / run::kJournalFileName;
  fs::create_directories(output());
  std::ofstream(journal) << "{\"schema\": 99}\n";
  const auto r = run();
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("tipc-run: error: " + journal.string() + ":1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("newer tipc-run (schema 99)"), std::string::npos) << r.err;
  EXPECT_EQ(records(), 0);
  EXPECT_EQ(test::slurp(journal), "{\"schema\": 99}\n");
}

TEST_F(RunPhase, AResultsLogOnAFullDiskFailsAPassingRunAlsoInCompatMode) {
  const fs::path log = output() / "results_python.log";
  fs::create_directories(output());
  fs::create_symlink("/dev/full", log);
  for (const std::vector<std::string>& mode : {std::vector<std::string>{}, std::vector<std::string>{"--compat"}}) {
    const auto r = run(mode);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("tipc-run: error: cannot write " + log.string() + ": No space left on device"),
              std::string::npos)
        << r.err;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
