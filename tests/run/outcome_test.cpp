#include "run/outcome.h"

#include <csignal>

#include <gtest/gtest.h>

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

Observation exited(int code) {
  Observation o;
  o.started = true;
  o.exit_code = code;
  return o;
}

TEST(Classify, TableOfOutcomes) {
  struct Row {
    const char* name;
    Observation observation;
    Status result;
    const char* reason;
  };
  Observation signalled = exited(0);
  signalled.exit_code.reset();
  signalled.signal = SIGSEGV;
  Observation timed_out = exited(0);
  timed_out.exit_code.reset();
  timed_out.signal = SIGTERM;
  timed_out.timed_out = true;
  timed_out.timeout_seconds = 2.5;
  Observation traceback = exited(0);
  traceback.log_findings = {"python traceback at line 12"};
  Observation never;
  Observation interrupted_before;
  interrupted_before.interrupted = true;
  Observation interrupted_running = exited(0);
  interrupted_running.exit_code.reset();
  interrupted_running.signal = SIGTERM;
  interrupted_running.interrupted = true;
  Observation launch;
  launch.launch_error = "no such file: /x/python";
  Observation no_status;
  no_status.started = true;

  const Row rows[] = {
      {"zero exit", exited(0), Status::kPass, ""},
      {"non-zero exit", exited(3), Status::kFail, "exit code 3"},
      {"signal", signalled, Status::kFail, "killed by signal 11 (Segmentation fault)"},
      {"timeout wins over the signal it caused", timed_out, Status::kTimeout, "timed out after 2.5 s"},
      {"log check on a clean exit", traceback, Status::kFail, "log check: python traceback at line 12"},
      {"exit code wins over log check",
       [] {
         Observation o = exited(1);
         o.log_findings = {"nan loss"};
         return o;
       }(),
       Status::kFail, "exit code 1"},
      {"never started", never, Status::kSkipped, "not started"},
      {"interrupted before start", interrupted_before, Status::kSkipped, "interrupted before it started"},
      {"interrupted while running", interrupted_running, Status::kSkipped, "interrupted while running"},
      {"launch error", launch, Status::kUnresolved, "could not start: no such file: /x/python"},
      {"started without status", no_status, Status::kUnresolved, "no exit status was observed"},
      {"the cluster ended it, whatever srun's status",
       [] {
         Observation o = exited(0);
         o.cluster_failure = "Slurm job 7 ended NODE_FAIL on node n2";
         return o;
       }(),
       Status::kFail, "Slurm job 7 ended NODE_FAIL on node n2"},
  };
  for (const auto& row : rows) {
    const Verdict v = classify(row.observation);
    EXPECT_EQ(v.result, row.result) << row.name;
    EXPECT_EQ(v.reason, row.reason) << row.name;
  }
}

TEST(Classify, FailureFlagsFollowLit) {
  EXPECT_FALSE(is_failure(Status::kPass));
  EXPECT_FALSE(is_failure(Status::kUnsupported));
  EXPECT_FALSE(is_failure(Status::kSkipped));
  EXPECT_TRUE(is_failure(Status::kFail));
  EXPECT_TRUE(is_failure(Status::kTimeout));
  EXPECT_TRUE(is_failure(Status::kUnresolved));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
