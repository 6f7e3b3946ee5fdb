#pragma once
// The real executor: each stage is a process group of its own (ninja's
// SubprocessSet), stdin from /dev/null, stdout and stderr merged into one pipe that
// is copied to the stage's log as it arrives. One poll loop owns every child.
// Nothing started here outlives the executor: leftover group members are killed
// when a stage's leader exits, and tipc-run is a child subreaper, so descendants
// that leave their group are still found and killed at the end. Every stage carries the
// run's id (run/run_marker) and, where one can be made, is in the run's cgroup
// (run/run_cgroup); the run's guardian (run/guardian) kills both if tipc-run itself is
// killed with SIGKILL and can clean up nothing.
#include <memory>

#include "run/executor.h"
#include "run/guardian.h"
#include "run/run_cgroup.h"
#include "run/signals.h"

namespace tipc::run {

class ProcessExecutor : public Executor {
 public:
  explicit ProcessExecutor(const SignalWatch& signals);
  ~ProcessExecutor() override;
  ProcessExecutor(const ProcessExecutor&) = delete;
  ProcessExecutor& operator=(const ProcessExecutor&) = delete;

  Result<void> start(const Launch& launch) override;
  std::optional<Finished> wait(Clock::time_point until) override;
  void signal(const std::string& id, int signal) override;
  Clock::time_point now() const override { return Clock::now(); }
  std::size_t running() const override;
  std::optional<int> process_group(const std::string& id) const override;
  std::optional<Clock::time_point> last_output(const std::string& id) const override;
  void dump_stacks(const std::string& id) override;

 private:
  class Job;
  const Job* job(const std::string& id) const;
  void reap_children();
  std::optional<Finished> take_finished(Clock::time_point now);
  void sleep_until_ready(Clock::time_point now, Clock::time_point until) const;

  const SignalWatch& signals_;
  int interrupts_seen_ = 0;
  RunCgroup cgroup_;
  Guardian guardian_;  // forked before the first stage starts
  std::vector<std::unique_ptr<Job>> jobs_;
  int was_subreaper_ = 0;  // the process's PR_GET_CHILD_SUBREAPER before, restored at the end
};

}  // namespace tipc::run
