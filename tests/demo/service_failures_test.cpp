// A serving chain's failures with real processes: a server that never listens (readiness
// timeout), one that dies before it is ready, and a client that hangs (its timeout). Each is
// planned from a serving_params config by the native planner and run by the scheduler with the
// process executor; each must give its verdicts and leave no process and no bound port behind.
#include <gtest/gtest.h>

#include <map>

#include "plan/chain_planner.h"
#include "run/process_executor.h"
#include "run/scheduler.h"
#include "run/signals.h"
#include "support/service_processes.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

const char* const kNeverListens = "import time\nwhile True:\n    time.sleep(1)\n";
const char* const kDiesEarly = "import sys, time\ntime.sleep(0.2)\nsys.exit(3)\n";
const char* const kListens =
    "import socket, sys\n"
    "port = int(sys.argv[1].split('=')[1])\n"
    "s = socket.socket()\ns.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
    "s.bind(('127.0.0.1', port))\ns.listen()\nheld = []\n"
    "while True:\n    held.append(s.accept()[0])\n";
const char* const kHangs = kNeverListens;
const char* const kAnswers = "print('ok')\n";

class ServiceFailures : public ::testing::Test {
 protected:
  // Runs server.py and client.py (Python programs) as a serving chain's server and client:
  // the server must be ready on the port within `ready_timeout`, the client end within
  // `client_timeout`. Stage id -> verdict.
  std::map<std::string, Verdict> run(const std::string& server, const std::string& client, double ready_timeout,
                                     double client_timeout) {
    repo_.write("serving/server.py", server);
    repo_.write("serving/client.py", client);
    const std::string port = std::to_string(port_);
    const std::string config =
        repo_.write("c.txt",
                    "===========================serving_params===========================\nmodel_name:m\n"
                    "python:/usr/bin/python3\ntrans_model:null\n--dirname:null\n--model_filename:null\n"
                    "--params_filename:null\n--serving_server:null\n--serving_client:null\nserving_dir:./serving\n"
                    "web_service:server.py --port=" +
                        port + "\n--use_gpu:null\npipline:client.py --port=" + port + "\n--image_dir:null\n");
    plan::PlanOptions plan_options;
    plan_options.mode = "serving_infer";
    auto plan = plan::plan_chain_config(config::read_config_text(config).value(),
                                        test::shipped_chain("serving_infer_python"), plan_options);
    EXPECT_TRUE(plan) << plan.error().str();
    plan->stages.at(0).service->ready_timeout = ready_timeout;
    SchedulerOptions options;
    options.repo_root = repo_.path().string();
    options.timeouts.by_kind[plan::StageKind::kInfer] = client_timeout;
    options.timeouts.grace = 1;
    ProcessExecutor executor(SignalWatch::install());
    Listener listener;
    const RunSummary summary = run_stages({&*plan}, executor, listener, options, [] { return false; });
    std::map<std::string, Verdict> verdicts;
    for (const auto& record : summary.stages) verdicts[record.stage->id] = record.verdict;
    return verdicts;
  }

  void expect_nothing_left_behind() {
    EXPECT_EQ(test::processes_inside(repo_.path()), std::vector<int>{}) << "processes of the run still alive";
    EXPECT_TRUE(test::port_is_free(port_)) << "port " << port_ << " still bound";
  }

  test::TempDir repo_;
  int port_ = test::free_port();
};

TEST_F(ServiceFailures, AServerThatNeverListensFailsAtItsReadinessTimeoutAndItsClientIsSkipped) {
  auto verdicts = run(kNeverListens, kAnswers, 1.0, 30);
  EXPECT_EQ(verdicts["service/python_server_cpu"].result, Status::kFail);
  EXPECT_NE(verdicts["service/python_server_cpu"].reason.find("not ready within"), std::string::npos)
      << verdicts["service/python_server_cpu"].reason;
  EXPECT_EQ(verdicts["infer/python_client_cpu"].result, Status::kSkipped);
  expect_nothing_left_behind();
}

TEST_F(ServiceFailures, AServerThatDiesBeforeItIsReadyFailsWithItsExitAndItsClientIsSkipped) {
  auto verdicts = run(kDiesEarly, kAnswers, 30, 30);
  EXPECT_EQ(verdicts["service/python_server_cpu"].result, Status::kFail);
  EXPECT_NE(verdicts["service/python_server_cpu"].reason.find("ended before it was ready"), std::string::npos)
      << verdicts["service/python_server_cpu"].reason;
  EXPECT_EQ(verdicts["infer/python_client_cpu"].result, Status::kSkipped);
  expect_nothing_left_behind();
}

TEST_F(ServiceFailures, AClientThatHangsTimesOutAndItsServerIsStoppedAfterIt) {
  auto verdicts = run(kListens, kHangs, 30, 1.0);
  EXPECT_EQ(verdicts["infer/python_client_cpu"].result, Status::kTimeout);
  EXPECT_EQ(verdicts["service/python_server_cpu"].result, Status::kPass);
  EXPECT_NE(verdicts["service/python_server_cpu"].reason.find("stopped after its last client"), std::string::npos)
      << verdicts["service/python_server_cpu"].reason;
  expect_nothing_left_behind();
}

// The control: a server that listens and a client that answers pass, and are gone after.
TEST_F(ServiceFailures, AListeningServerAndAnAnsweringClientPassAndLeaveNothing) {
  auto verdicts = run(kListens, kAnswers, 30, 30);
  EXPECT_EQ(verdicts["infer/python_client_cpu"].result, Status::kPass);
  EXPECT_EQ(verdicts["service/python_server_cpu"].result, Status::kPass);
  expect_nothing_left_behind();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
