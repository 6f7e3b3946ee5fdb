#pragma once
// results_python.log, the status log a run writes for each plan, as the base of its two
// listeners: tipc-run's own (results_log_reporter.h) and the reference runner's byte-for-byte
// one (reference_status_log.h, with the rest of the reference's semantics). Here: where each
// plan's log is, its folder, appending whole lines, and the first failure to write them.
#include <set>
#include <string>

#include "run/events.h"

namespace tipc::report {

class StatusLog : public run::Listener {
 public:
  // The first failure to write a results log ("cannot write PATH: REASON"); "" while none.
  // Said on stderr when it happens; the run cannot pass (cli/run_phase.h).
  const std::string& write_error() const { return write_error_; }

 protected:
  explicit StatusLog(std::string repo_root);

  // Creates each plan's log folder; `fresh`: and empties each log, for a log of this run alone.
  void open_logs(const run::RunInfo& info, bool fresh);
  // Appends `lines` to `plan`'s log, after `opening` (the lines before any stage's) the first
  // time it is called for that plan. Keeps the first failure, with errno's reason, and says it.
  void append(const plan::Plan& plan, const std::string& opening, const std::string& lines);

 private:
  std::string path_of(const plan::Plan& plan) const;
  void note_write_error(const std::string& path);

  std::string repo_root_;
  std::set<const plan::Plan*> opened_;  // the plans whose opening has been written
  std::string write_error_;
};

}  // namespace tipc::report
