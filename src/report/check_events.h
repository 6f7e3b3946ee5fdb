#pragma once
// The "check finished" event and its source. The scheduler knows stages, not what a check
// measured, so the event is report/'s, not a run::Listener's (run/ is below report/): this
// listener sits between the scheduler and the reporters, passes every run event on, and
// after a check stage that ran reads the --json file the check wrote and tells the check
// listener its values and limits.
#include <chrono>
#include <string>

#include "report/run_report.h"
#include "run/events.h"

namespace tipc::report {

class CheckListener {
 public:
  virtual ~CheckListener() = default;
  // After stage_finished of a check stage that ran and wrote its --json file.
  virtual void check_finished(const run::StageRecord& record, const CheckDetails& check) = 0;
};

class CheckEventSource : public run::Listener {
 public:
  CheckEventSource(std::string repo_root, run::Listener& downstream, CheckListener& checks)
      : repo_root_(std::move(repo_root)), downstream_(downstream), checks_(checks) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override { downstream_.stage_started(record); }
  void stage_finished(const run::StageRecord& record) override;
  void tick(double run_seconds) override { downstream_.tick(run_seconds); }
  void run_finished(const run::RunSummary& summary) override { downstream_.run_finished(summary); }

 private:
  std::string repo_root_;  // a stage's cwd is relative to it
  run::Listener& downstream_;
  CheckListener& checks_;
  std::chrono::system_clock::time_point run_start_;
};

}  // namespace tipc::report
