#pragma once
// The run's state on disk, beside each plan's logs (<LOG>, the plan's output directory):
//
//   .tipc-plan.json      the whole plan (every stage, also those --only or -k leave out)
//                        and the stages this run selected: written atomically when the run starts
//   .tipc-journal.jsonl  the results of every run, merged by stage: when a run starts, the
//                        journal is compacted to its version line and each stage's last
//                        line (one of a newer tipc-run is a write error); then come a "run
//                        started" line, one line per stage the run decided (written as it
//                        finishes, one O_APPEND write each), a "run finished" line. A stage
//                        the run did not run (not selected, resumed, or never started before
//                        an interrupt) keeps its last line, of an earlier run
//   .tipc-times.json     each stage's time the last time it ran, by stage id, across runs
//                        (a run restricted by --only or -k keeps the others'): what the
//                        scheduler's start order estimates from; rewritten when a run ends
//
// Reports are built from these files alone (report/report_loader.h), so a run that was
// interrupted or killed can still be reported; --resume reads the journal to skip the
// stages that PASSed with an unchanged command. docs/report-schema.md describes the files;
// each has its record type, read and written in one place: plan/plan_file_record.h,
// run/journal_record.h, run/times_record.h.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "plan/plan_file_record.h"
#include "run/events.h"
#include "run/journal_record.h"
#include "run/times_record.h"

namespace tipc::run {

// Changes whenever the stage's argv, working directory or environment change.
std::string stage_fingerprint(const plan::Stage& stage);

std::string plan_output_path(const std::string& repo_root, const plan::Plan& plan);  // absolute <LOG>
std::string journal_path(const std::string& repo_root, const plan::Plan& plan);
std::string plan_file_path(const std::string& repo_root, const plan::Plan& plan);
std::string times_file_path(const std::string& repo_root, const plan::Plan& plan);

// Stage keys (stage_key) whose last journal entry is a PASS or FLAKY with the same
// fingerprint. An error names a journal that cannot be read or is of a newer tipc-run.
Result<std::set<std::string>> passed_in_journal(const std::string& repo_root,
                                                const std::vector<const plan::Plan*>& plans);

// Seconds each stage of the plans ran the last time it started, by stage key: the times
// file, with the journal's newer times over it. The scheduler's estimates
// (SchedulerOptions::history); read before the run compacts the journal. A times file that
// cannot be read only loses its times (a warning on stderr); a journal that cannot be read
// is an error, as in passed_in_journal.
Result<std::map<std::string, double>> recorded_durations(const std::string& repo_root,
                                                         const std::vector<const plan::Plan*>& plans);

// The configs a run was given but does not run: the invalid ones with their problems, and
// those --exclude (or the settings' exclude:) left out, relative to the directory given.
struct ConfigsLeftOut {
  std::vector<Diagnostic> invalid;
  std::vector<std::string> excluded;
  std::vector<plan::ConfigInOtherModes> in_other_modes;  // whose chain takes none of the run's MODEs
};

// What the state files record beyond the plans and the RunInfo.
struct RunContext {
  std::string repo_root;       // absolute
  bool resumed = false;        // --resume
  std::string settings_file;   // the project settings used; "" when none
  std::string dialect_source;  // how the dialect was chosen (dialect::DialectChoice::source)
  ConfigsLeftOut left_out;     // configs of the run left out
  // The plans before --only or -k selected their stages, in the order of RunInfo::plans;
  // empty when every stage runs. The plan file describes these.
  std::vector<const plan::Plan*> whole_plans;
};

class JournalWriter : public Listener {
 public:
  explicit JournalWriter(RunContext context) : context_(std::move(context)) {}
  void run_started(const RunInfo& info) override;
  void stage_finished(const StageRecord& record) override;
  void run_finished(const RunSummary& summary) override;
  // The first failure to write the plan file or the journal ("cannot write PATH: REASON");
  // "" while none. The run goes on: its stages do not depend on these files, but the
  // reports and --resume do, so the run cannot pass (cli/run_phase.h).
  const std::string& write_error() const { return write_error_; }

 private:
  // Keeps the first failure and says it on stderr at once.
  void note_write_error(const Result<void>& written);

  RunContext context_;
  std::vector<const plan::Plan*> plans_;
  std::string run_id_;
  double started_unix_ = 0;  // stage times are offsets from this
  // Stages skipped before they started: written when the run finishes, unless it was
  // interrupted (then they keep their earlier results).
  std::vector<std::pair<const plan::Plan*, JournalEntry>> not_started_;
  std::string write_error_;
};

}  // namespace tipc::run
