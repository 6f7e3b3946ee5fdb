#pragma once
// results_python.log, the reference runner's status log, as a listener. Compat
// mode writes the dialect's exact bytes (yellow escape codes, append-only, the train
// status taken from the trainer's own log, spec §8, D2, D12, D17); default mode
// starts a fresh file per run, writes plain text and reports what really happened.
#include <map>
#include <string>
#include <utility>

#include "run/events.h"

namespace tipc::report {

class ResultsLogReporter : public run::Listener {
 public:
  // `keep_existing`: --resume continues the previous run's log.
  ResultsLogReporter(std::string repo_root, bool compat, bool keep_existing = false)
      : repo_root_(std::move(repo_root)), compat_(compat), keep_existing_(keep_existing) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override;
  void stage_finished(const run::StageRecord& record) override;

  // Whether the reference would have written "Run successfully" for this stage.
  static bool reference_success(const run::StageRecord& record, bool compat);

  // The first failure to write a results log ("cannot write PATH: REASON"); "" while none.
  // Said on stderr when it happens; the run cannot pass (cli/run_phase.h).
  const std::string& write_error() const { return write_error_; }

 private:
  std::string path_of(const plan::Plan& plan) const;
  // Whether a finished stage gets a line: it ran, or (compat) it could not start.
  bool writes_line(const run::StageRecord& record) const;
  // Keeps the first failure, with errno's reason, and says it.
  void append_status_line(const run::StageRecord& record, bool success);
  // Compat: the word the runner writes for this stage, its own result or, for a stage whose
  // line reports another's exit status (Stage::results_log.status_from), that one's.
  bool compat_word(const run::StageRecord& record);
  void note_write_error(const std::string& path);

  std::string repo_root_;
  bool compat_;
  bool keep_existing_;
  std::map<const plan::Plan*, bool> banner_written_;
  std::map<std::pair<const plan::Plan*, std::string>, bool> compat_success_;  // by plan and stage id
  std::string write_error_;
};

}  // namespace tipc::report
