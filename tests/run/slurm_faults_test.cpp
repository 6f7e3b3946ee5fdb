// --executor slurm when the cluster fails under a run (scripts/slurm-local.sh's cluster,
// tests/support/slurm_faults.h's faults): a node that stops while its stages run, slurmctld
// restarted in the middle of a run, Ctrl-C, and a stage the cluster can never hold.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/slurm_faults.h"
#include "support/slurm_multi_node.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using Json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

class SlurmMultiNodeFaults : public test::SlurmMultiNodeTest {
 protected:
  // A node that stops answering is declared down after 10 s instead of the cluster's 30.
  static constexpr int kSlurmdTimeout = 10;
  static void SetUpTestSuite() {
    test::SlurmMultiNodeTest::SetUpTestSuite();
    slurmd_timeout_set_ = test::set_slurmd_timeout(kSlurmdTimeout);
  }
  inline static bool slurmd_timeout_set_ = false;
  void SetUp() override {
    test::SlurmMultiNodeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    repo_.write(test::kPaddleOcrMarker, "");
    repo_.write("eval-ok", "");
  }
  // A fake-stage config named `model` whose train runs `train` on `gpu_list`.
  void write_config(const std::string& model, const std::string& train, const std::string& gpu_list) {
    std::string text = test::fake_config(train, gpu_list);
    text.replace(text.find("model_name:fake"), 15, "model_name:" + model);
    repo_.write("test_tipc/configs/" + model + ".txt", text);
  }
  static std::string slurm(const std::string& command) { return cluster().command(command); }
  // Jobs Slurm still holds (pending, running, completing): none once a run has ended.
  std::string jobs_held() const { return slurm("squeue --noheader --format='%i %T %j'"); }
  bool nothing_held() const { return jobs_held().find_first_not_of(" \n") == std::string::npos; }
  // The last lines of the daemons' logs, for a failure's message.
  std::string daemon_logs() const {
    std::string tails;
    for (const auto& log : fs::directory_iterator(test::slurm_cluster_dir() / "log")) {
      tails += slurm("echo '---- " + log.path().string() + "'; tail -n 15 " + test::shell_quote(log.path().string()));
    }
    return tails;
  }
  // Waits until the queue is empty; false when jobs remain after `seconds`.
  bool queue_drains(double seconds) const {
    const auto start = SteadyClock::now();
    while (seconds_since(start) < seconds) {
      if (nothing_held()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // Waits until no job in the queue is pending or running (cancelled jobs may still be
  // COMPLETING); false when one is after `seconds`.
  bool jobs_cancelled(double seconds) const {
    const auto start = SteadyClock::now();
    while (seconds_since(start) < seconds) {
      const std::string states = slurm("squeue --noheader --states=PENDING,RUNNING --format=%T");
      if (states.find_first_not_of(" \n") == std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // Waits until `node` is back in service (idle); false when it is not after `seconds`.
  static bool node_back(const std::string& node, double seconds) {
    const auto start = SteadyClock::now();
    while (seconds_since(start) < seconds) {
      if (slurm("sinfo --noheader --Node --nodes=" + node + " --format=%T") == "idle\n") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }
  // Waits until squeue's `format` of the running jobs contains `text`; its output then.
  std::string wait_for_running(const std::string& format, const std::string& text, double seconds) const {
    const auto start = SteadyClock::now();
    std::string running;
    while (seconds_since(start) < seconds) {
      running = slurm("squeue --noheader --states=running --format='" + format + "'");
      if (running.find(text) != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return running;
  }
  // The stages of `model`'s plan in the reports of a run over test_tipc/configs (a run of
  // one config writes them beside its plan).
  Json stages_of(const std::string& model) const {
    for (const fs::path& dir :
         {fs::path("test_tipc/output"), fs::path("test_tipc/output") / model / "lite_train_lite_infer"}) {
      const auto text = test::slurp(repo_.path() / dir / "report.json");
      if (text.empty()) continue;
      const Json report = Json::parse(text);
      for (const auto& plan : report["plans"]) {
        if (plan["model"] == model) return plan["stages"];
      }
    }
    return Json::array();
  }
  static Json stage_named(const Json& stages, const std::string& kind_and_name) {
    for (const auto& stage : stages) {
      if (stage["id"].get<std::string>().find(kind_and_name) != std::string::npos) return stage;
    }
    return Json{{"id", "none"}, {"result", "missing"}, {"reason", ""}};
  }

  test::TempDir repo_;
};

// The train of fake_lost holds both GPUs of its node when that node loses power, while the
// train of fake_kept runs on the other node. Slurm declares the node down after its
// SlurmdTimeout and ends the job NODE_FAIL (srun may still exit 0): the train FAILs naming
// the node, its dependents are SKIPPED, fake_kept's stages (after its train, on the node
// left) all pass, the run's verdict is FAIL and no job stays in the queue.
TEST_F(SlurmMultiNodeFaults, ANodeStoppedWhileItsStagesRunFailsThemNamingTheNodeAndTheOthersFinish) {
  ASSERT_TRUE(slurmd_timeout_set_) << slurm("scontrol show config | grep SlurmdTimeout");
  write_config("fake_lost", "train.py --record rec.txt --sleep 300", "0,1");
  // Long enough that the stages after it start once Slurm knows the node is gone (else Slurm
  // may place them on it, and they fail too).
  write_config("fake_kept", "train.py --record rec.txt --sleep " + std::to_string(5 * kSlurmdTimeout), "0,1");
  const auto start = SteadyClock::now();
  const pid_t pid =
      test::start_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm"});
  const std::string running = wait_for_running("%k|%N", "fake_lost.txt#norm_train", 60);
  const auto line = running.find("fake_lost.txt#norm_train");
  ASSERT_NE(line, std::string::npos) << running;
  std::string node = running.substr(running.find('|', line) + 1);
  node = node.substr(0, node.find('\n'));
  std::this_thread::sleep_for(std::chrono::seconds(2));  // its step runs: the node fails under it
  ASSERT_GT(test::power_off_node(node), 1) << "the node's slurmd and the train's step daemon";
  const double stopped_at = seconds_since(start);

  int status = 0;
  waitpid(pid, &status, 0);
  const double ended_after = seconds_since(start) - stopped_at;
  const std::string states = slurm("sinfo --noheader --Node --format='%N %T %E'") + daemon_logs();
  test::power_on_node(node);  // for the tests after this one
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
  const Json lost = stages_of("fake_lost");
  const Json train = stage_named(lost, "norm_train");
  EXPECT_EQ(train["result"], "FAIL") << train.dump();
  const std::string reason = train["reason"].get<std::string>();
  EXPECT_NE(reason.find("NODE_FAIL"), std::string::npos) << reason;
  EXPECT_NE(reason.find("down: " + node + " (Not responding)"), std::string::npos) << reason << "\n" << states;
  // Slurm's SlurmdTimeout and its ping cycle: the train fails well before its 300 s.
  EXPECT_LT(train["seconds"].get<double>(), 12 * kSlurmdTimeout) << train.dump();
  EXPECT_EQ(stage_named(lost, "eval")["result"], "SKIPPED");
  const Json kept = stages_of("fake_kept");
  EXPECT_EQ(kept.size(), lost.size());
  for (const auto& stage : kept) EXPECT_EQ(stage["result"], "PASS") << stage.dump() << "\n" << states;
  EXPECT_TRUE(nothing_held()) << jobs_held();
  std::cout << "node " << node << " stopped " << stopped_at << " s into the run: its train ended after "
            << train["seconds"].get<double>() << " s, the run " << ended_after << " s after the stop; " << reason
            << "\n";
  EXPECT_TRUE(node_back(node, 30)) << slurm("sinfo --noheader --Node --format='%N %T %E'");
}

// slurmctld stops (state saved) while a train runs and the stages after it wait, and starts
// again 6 s later: the running step goes on, an srun started while it was away gets no
// allocation. The run ends on its own with every stage decided; a stage that failed says
// why in srun's words, and no job stays in the queue.
TEST_F(SlurmMultiNodeFaults, SlurmctldRestartedDuringARunNeverHangsTheRun) {
  write_config("fake", "train.py --record rec.txt --sleep 4", "0");
  const auto start = SteadyClock::now();
  const pid_t pid =
      test::start_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm"});
  ASSERT_NE(wait_for_running("%k", "norm_train", 60).find("norm_train"), std::string::npos);
  ASSERT_TRUE(test::stop_controller());
  std::this_thread::sleep_for(std::chrono::seconds(6));
  ASSERT_TRUE(test::start_controller()) << test::file_tail_of(test::slurm_cluster_dir() / "log/slurmctld.log");
  int status = 0;
  waitpid(pid, &status, 0);
  const double seconds = seconds_since(start);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_TRUE(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1) << WEXITSTATUS(status);
  EXPECT_LT(seconds, 240);
  for (const auto& stage : stages_of("fake")) {
    const std::string result = stage["result"];
    EXPECT_TRUE(result == "PASS" || result == "FAIL" || result == "SKIPPED") << stage.dump();
    if (result == "FAIL") {
      EXPECT_NE(stage["reason"].get<std::string>().find("srun: error:"), std::string::npos) << stage.dump();
    }
  }
  EXPECT_TRUE(queue_drains(10)) << jobs_held();
  std::cout << "slurmctld restarted mid-run: the run ended after " << seconds << " s with exit code "
            << WEXITSTATUS(status) << "\n";
}

// Ctrl-C at once after a train's job started, while another waits for its GPUs (on one
// node) or runs too: within 10 s no job of the run is pending or running any more (each was
// cancelled; Slurm may still list it COMPLETING while its slurmd ends the step, which takes
// seconds more on a loaded machine: once 5 s on CI's 2 cores beside a sanitized test shard),
// and within 60 s the queue is empty. (A step that ignores SIGTERM and is cancelled while it
// starts takes Slurm's slurmd max(KillWait, 5) s more: docs/slurm.md.)
TEST_F(SlurmMultiNodeFaults, CtrlCCancelsEveryJobAndTheQueueEmpties) {
  write_config("fake", "train.py --record rec.txt --sleep 300", "0,1");
  write_config("fake_next", "train.py --record rec.txt --sleep 300", "0,1");
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm", "--only", "train"});
  const auto deadline = SteadyClock::now() + std::chrono::seconds(60);
  std::string queue;
  while (SteadyClock::now() < deadline) {
    queue = slurm("squeue --noheader --format=%T");
    if (queue.find("RUNNING") != std::string::npos && std::count(queue.begin(), queue.end(), '\n') >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_NE(queue.find("RUNNING"), std::string::npos) << queue;
  const auto interrupted = SteadyClock::now();
  kill(pid, SIGINT);
  EXPECT_TRUE(jobs_cancelled(10)) << "still pending or running " << seconds_since(interrupted)
                                  << " s after Ctrl-C: " << jobs_held() << daemon_logs();
  const double cancelled = seconds_since(interrupted);
  EXPECT_TRUE(queue_drains(60)) << "still queued " << seconds_since(interrupted) << " s after Ctrl-C: " << jobs_held()
                                << daemon_logs();
  const double drained = seconds_since(interrupted);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
  std::cout << "Ctrl-C: every job cancelled " << cancelled << " s after it, the queue empty after " << drained
            << " s\n";
}

// A train over more nodes than the cluster has, and one needing more GPUs than any node:
// UNSUPPORTED with the reason, before anything is submitted; nothing reaches the queue.
TEST_F(SlurmMultiNodeFaults, AStageNeedingMoreThanTheClusterHasIsUnsupportedWithTheReason) {
  write_config("fake_wide", "train.py --record rec.txt", "10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4,10.0.0.5;0");
  write_config("fake_deep", "train.py --record rec.txt", "0,1,2,3,4,5,6,7,8");
  const std::string submitted_before = slurm("squeue --noheader --states=all --format=%i");
  const auto r = test::run_tipc(
      repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm", "--only", "train"});
  EXPECT_EQ(r.exit_code, 5) << "nothing could run: " << r.out << r.err;
  const Json wide = stage_named(stages_of("fake_wide"), "norm_train");
  EXPECT_EQ(wide["result"], "UNSUPPORTED") << wide.dump();
  EXPECT_NE(wide["reason"].get<std::string>().find("needs 5 nodes; the cluster has"), std::string::npos) << wide.dump();
  const Json deep = stage_named(stages_of("fake_deep"), "norm_train");
  EXPECT_EQ(deep["result"], "UNSUPPORTED") << deep.dump();
  EXPECT_NE(deep["reason"].get<std::string>().find("needs 9 GPUs per node"), std::string::npos) << deep.dump();
  EXPECT_EQ(slurm("squeue --noheader --states=all --format=%i"), submitted_before) << "nothing was submitted";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
