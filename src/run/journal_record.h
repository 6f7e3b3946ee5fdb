#pragma once
// The journal, <LOG>/.tipc-journal.jsonl: one JSON object per line, the results of every run
// merged by stage (docs/report-schema.md). Its one record type, its reading, its appending and
// its compaction, and the two rules every reader of it uses: each stage's last entry
// (Journal::last_entries) and "passed with the same fingerprint" (JournalEntry::passed_with).
// The model is ninja's BuildLog.
//
// A line cut by a crash, or one that is not a journal line, is left out when reading: a crash
// leaves at most one, and the line after it starts on a line of its own. A compacted journal
// starts with a version line ({"schema": 1}); one without is of an older tipc-run and reads
// the same.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "run/gpu_figures.h"
#include "run/outcome.h"
#include "run/resources.h"

namespace tipc::run {

inline constexpr const char* kJournalFileName = ".tipc-journal.jsonl";
inline constexpr int kJournalVersion = 1;  // written as "schema"; a reader rejects a larger one

// A try --retries ran before a stage's last one.
struct AttemptEntry {
  Status result = Status::kUnresolved;
  std::string reason;
  std::optional<double> started;  // Unix seconds
  std::optional<double> seconds;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string log;  // absolute: where this try's log was kept
  bool operator==(const AttemptEntry&) const = default;
};

// A stage's line: its result in one run.
struct JournalEntry {
  std::string stage;  // id
  // The run that wrote it ("" when unknown). A line of an older tipc-run without them takes
  // both from the "run started" line above it.
  std::string run_id;
  std::optional<double> run_started;
  std::string fingerprint;  // stage_fingerprint (run/journal.h) of the command it ran
  // A result word this tipc-run does not know (a damaged or newer writer) reads as
  // UNRESOLVED with a reason that names the word: a failure, never a pass.
  Status result = Status::kUnresolved;
  std::string reason;
  double seconds = 0;             // 0 for a stage that never started
  std::optional<double> started;  // Unix seconds; nullopt: it never started
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::vector<std::string> gpus;  // the physical ids it ran on
  std::vector<std::string> log_findings;
  std::string job_id;                     // its Slurm job; "" (not written) when none
  std::string nodes;                      // the nodes of that job (Slurm's list); "" (not written) when none
  std::vector<AttemptEntry> attempts;     // oldest first; not written when empty
  GpuFigures gpu;                         // the driver's figures while it ran; not written when empty
  std::vector<std::string> gpu_warnings;  // StageRecord::gpu_warnings; not written when empty
  bool operator==(const JournalEntry&) const = default;

  // Its command is the one with this fingerprint (the plan file's, or stage_fingerprint's).
  bool same_command(const std::string& stage_fingerprint) const;
  // "A PASS with the same fingerprint": a result --resume keeps (PASS or FLAKY) of this command.
  bool passed_with(const std::string& stage_fingerprint) const;
  // Its time says how long the stage takes: it started, and no interrupt stopped it (SKIPPED).
  bool ran() const;
};

struct RunStartedLine {
  std::string run_id;
  double started = 0;  // Unix seconds
  int jobs = 1;
  std::vector<std::string> gpus;  // the ids the run was given
  std::string resources;          // where they came from
  bool resumed = false;
  std::string tool_version;
  std::vector<Gpu> devices;  // those of the gpus the driver described (index, name, UUID); not written when none
  bool operator==(const RunStartedLine&) const = default;
};

struct RunFinishedLine {
  std::string run_id;
  double finished = 0;  // Unix seconds
  double seconds = 0;
  bool interrupted = false;
  bool operator==(const RunFinishedLine&) const = default;
};

struct Journal {
  int version = kJournalVersion;      // of the version line; 0 when there is none (an older tipc-run)
  std::vector<JournalEntry> entries;  // the stage lines, in file order
  std::vector<RunStartedLine> runs_started;
  std::vector<RunFinishedLine> runs_finished;

  // A missing file is an empty journal. An error names the file: one that cannot be read, or
  // one of a newer tipc-run (its line and key).
  static Result<Journal> load(const std::string& path);
  // One line, with one O_APPEND write; a failure says "cannot write PATH: REASON". No fsync:
  // a line lost to a power cut only makes --resume run that stage again; an fsync per stage
  // cost the scheduler's thread 0.5 s in a 200-stage suite (bench/RESULTS.md).
  static Result<void> append(const std::string& path, const JournalEntry& entry);
  static Result<void> append(const std::string& path, const RunStartedLine& line);
  static Result<void> append(const std::string& path, const RunFinishedLine& line);
  // Rewrites the file (atomically) to the version line and each stage's last entry, in the
  // order of those entries: the journal does not grow with every run.
  Result<void> write_compacted(const std::string& path) const;

  // Each stage's last entry, by stage id (a run's own lines come after the earlier runs').
  std::map<std::string, const JournalEntry*> last_entries() const;
  // Each stage's time in its last entry that ran(), by stage id.
  std::map<std::string, double> last_times() const;
  // The run lines of one run; nullptr when the journal has none.
  const RunStartedLine* run_started(const std::string& run_id) const;
  const RunFinishedLine* run_finished(const std::string& run_id) const;
};

}  // namespace tipc::run
