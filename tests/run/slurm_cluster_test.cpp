// --executor slurm against a real one-node Slurm cluster with two fake GPUs
// (scripts/slurm-local.sh): a fake-stage suite spread over it without two running jobs
// sharing a GPU, job ids in the reports, and jobs cancelled on a timeout and on Ctrl-C.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/slurm_cluster.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using Json = nlohmann::json;

// One line of tipc-fake-stage --record: when a stage ran and which GPUs it saw.
struct Span {
  double start = 0, end = 0;
  std::vector<std::string> gpus;
};

std::vector<Span> spans_in(const std::string& record_file) {
  std::vector<Span> spans;
  std::ifstream in(record_file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string pid, pgid, cvd;
    Span span;
    fields >> pid >> pgid >> span.start >> span.end >> cvd;
    std::istringstream ids(cvd == "unset" ? "" : cvd);
    for (std::string id; std::getline(ids, id, ',');) {
      if (!id.empty()) span.gpus.push_back(id);
    }
    spans.push_back(span);
  }
  return spans;
}

// Pairs of stages that ran at the same time on the same GPU.
int gpu_collisions(const std::vector<Span>& spans) {
  int collisions = 0;
  for (std::size_t a = 0; a < spans.size(); ++a) {
    for (std::size_t b = a + 1; b < spans.size(); ++b) {
      if (spans[a].end <= spans[b].start || spans[b].end <= spans[a].start) continue;
      for (const auto& gpu : spans[a].gpus) {
        collisions += static_cast<int>(std::count(spans[b].gpus.begin(), spans[b].gpus.end(), gpu));
      }
    }
  }
  return collisions;
}

class SlurmRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new test::LocalSlurm;
    started_ = cluster_->start(2);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    if (!test::cluster_is_up(*cluster_, started_)) GTEST_SKIP() << "SLURM TESTS NOT RUN: " << cluster_->why();
    repo_.write(test::kPaddleOcrMarker, "");
    repo_.write("eval-ok", "");
  }
  // A fake-stage config named `model`, trains on one GPU and on two.
  void write_config(const std::string& model, const std::string& train, const std::string& infer_sleep = "0") {
    std::string text = test::fake_config(train, "0|0,1");
    text.replace(text.find("model_name:fake"), 15, "model_name:" + model);
    const std::string infer = "inference:infer.py --record rec.txt";
    text.replace(text.find(infer), infer.size(), infer + " --sleep " + infer_sleep);
    repo_.write("test_tipc/configs/" + model + ".txt", text);
  }
  test::RunResult run(std::vector<std::string> args) { return test::run_tipc(repo_.path(), args); }
  std::string jobs_in_queue() const { return cluster_->command("squeue --noheader --format=%i"); }
  // Waits until the queue is empty; false when jobs remain after `seconds`.
  bool queue_drains(double seconds) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      if (jobs_in_queue().find_first_not_of(" \n") == std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }
  Json report(const std::string& dir) const { return Json::parse(test::slurp(repo_.path() / dir / "report.json")); }

  static test::LocalSlurm* cluster_;
  static bool started_;
  test::TempDir repo_;
};

test::LocalSlurm* SlurmRun::cluster_ = nullptr;
bool SlurmRun::started_ = false;

TEST_F(SlurmRun, ASuiteSpreadsOverTheClusterNoGpuIsSharedAndTheReportsNameTheJobs) {
  for (const char* model : {"fake_a", "fake_b", "fake_c"}) {
    write_config(model, "train.py --record rec.txt --sleep 1", "0.5");
  }
  const auto local = run({"test_tipc/configs", "lite_train_lite_infer", "--gpus", "0,1"});
  ASSERT_EQ(local.exit_code, 0) << local.out << local.err;
  const double local_seconds = report("test_tipc/output")["seconds"].get<double>();
  EXPECT_EQ(gpu_collisions(spans_in((repo_.path() / "rec.txt").string())), 0);
  fs::rename(repo_.path() / "rec.txt", repo_.path() / "rec-local.txt");

  const auto slurm = run({"test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm"});
  ASSERT_EQ(slurm.exit_code, 0) << slurm.out << slurm.err;
  const auto spans = spans_in((repo_.path() / "rec.txt").string());
  EXPECT_EQ(spans.size(), spans_in((repo_.path() / "rec-local.txt").string()).size());
  EXPECT_EQ(gpu_collisions(spans), 0) << "two running jobs saw the same GPU";
  int on_gpus = 0;
  for (const auto& span : spans) on_gpus += span.gpus.empty() ? 0 : 1;
  EXPECT_GT(on_gpus, 0) << "Slurm set CUDA_VISIBLE_DEVICES from the allocation";

  const Json reports = report("test_tipc/output");
  EXPECT_EQ(reports["counts"]["PASS"], reports["counts"]["total"]);
  EXPECT_NE(slurm.out.find(" [job "), std::string::npos) << slurm.out;
  std::set<std::string> job_ids;
  for (const auto& plan : reports["plans"]) {
    for (const auto& stage : plan["stages"]) {
      ASSERT_TRUE(stage["job_id"].is_string()) << stage["id"];
      job_ids.insert(stage["job_id"].get<std::string>());
    }
  }
  EXPECT_EQ(job_ids.size(), spans.size()) << "one job per stage";
  EXPECT_NE(test::slurp(repo_.path() / "test_tipc/output/junit.xml").find("<system-out>job "), std::string::npos);
  std::cout << "fake-stage suite of " << spans.size() << " stages on 2 fake GPUs: local " << local_seconds
            << " s, slurm " << reports["seconds"].get<double>() << " s\n";
}

TEST_F(SlurmRun, ATimeoutCancelsTheJob) {
  write_config("fake", "train.py --record rec.txt --ignore-term --sleep 120");
  repo_.write("test_tipc/tipc-run.yaml", "timeouts: {grace: 1}\n");
  const auto started = std::chrono::steady_clock::now();
  const auto r = run({"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--executor", "slurm", "--only", "train",
                      "-k", "gpus_0/", "--timeout", "3"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("TIMEOUT     norm_train/gpus_0/autocast_null/train"), std::string::npos) << r.out;
  EXPECT_LT(seconds, 30) << "the job was not left to run its 120 s";
  EXPECT_TRUE(queue_drains(10)) << "still queued: " << jobs_in_queue();
  const Json stage = report("test_tipc/output/fake/lite_train_lite_infer")["plans"][0]["stages"][0];
  EXPECT_EQ(stage["result"], "TIMEOUT");
  EXPECT_TRUE(stage["job_id"].is_string()) << stage.dump();
}

TEST_F(SlurmRun, CtrlCCancelsRunningAndWaitingJobs) {
  write_config("fake", "train.py --record rec.txt --sleep 120");
  // Slurm places the jobs (tipc-run's own placement submits only what fits now).
  repo_.write("test_tipc/tipc-run.yaml", "slurm:\n  placement: slurm\n");
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--executor", "slurm", "--only", "train"});
  // Both trains are submitted; the 2-GPU one waits until the 1-GPU one ends.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::string queue;
  while (std::chrono::steady_clock::now() < deadline) {
    queue = cluster_->command("squeue --noheader --format=%T");
    if (queue.find("RUNNING") != std::string::npos && queue.find("PENDING") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_NE(queue.find("RUNNING"), std::string::npos) << queue;
  EXPECT_NE(queue.find("PENDING"), std::string::npos) << queue;
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_TRUE(queue_drains(10)) << "still queued: " << jobs_in_queue();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
