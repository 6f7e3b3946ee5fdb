#pragma once
// The source of the "check finished" event. The scheduler knows stages, not what a check
// measured; this listener sits between it and the reporters, passes every event on, and
// after a check stage that ran reads the --json file the check wrote and sends
// check_finished with its values and limits.
#include <chrono>
#include <string>

#include "run/events.h"

namespace tipc::report {

class CheckEventSource : public run::Listener {
 public:
  CheckEventSource(std::string repo_root, run::Listener& downstream)
      : repo_root_(std::move(repo_root)), downstream_(downstream) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override { downstream_.stage_started(record); }
  void stage_finished(const run::StageRecord& record) override;
  void tick(double run_seconds) override { downstream_.tick(run_seconds); }
  void run_finished(const run::RunSummary& summary) override { downstream_.run_finished(summary); }

 private:
  std::string repo_root_;  // a stage's cwd is relative to it
  run::Listener& downstream_;
  std::chrono::system_clock::time_point run_start_;
};

}  // namespace tipc::report
