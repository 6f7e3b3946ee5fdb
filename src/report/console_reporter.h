#pragma once
// What a person sees while a run goes: on a terminal one rewritten status line
// (`[done/total] stage-id`, ninja style); otherwise (a CI log) a line when a stage starts
// and a "still running" line every minute it runs. Every stage that failed or was skipped
// gets a line, a failure also its command, exit status and last log lines; a failed check
// its failing values against their limits, or, when an earlier check failed with the same
// values, a reference to that one. Stages that could not run here (UNSUPPORTED) are
// summarised once at the end, grouped by the reason at their root as the verdict groups them.
// Every run ends with a recap of the stages to look at (needs_attention), each with its log
// and the log's first error line. In a suite every stage is named after its config's label
// (config_labels.h): `[3/248] PASS ResNet50/train_infer_python.txt: tipc_stage_5/train`.
// The first line names the GPUs as the driver described them where it did (`GPU 0 NVIDIA
// H100 80GB HBM3 (GPU-9f8e…)`); a stage's GPU warnings (another process's memory on its GPU)
// follow its line, each text once per run: a process that holds a GPU all run long is said once.
// Quiet (-q): only the failures, the recap and the verdict.
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "report/check_events.h"
#include "report/run_report.h"
#include "run/events.h"

namespace tipc::report {

struct ConsoleStyle {
  bool rewrite = false;  // a terminal: rewrite the status line in place
  bool color = false;
  bool quiet = false;                                      // -q: failures and the recap only
  static ConsoleStyle detect(int fd, bool quiet = false);  // isatty, TERM, NO_COLOR, CLICOLOR_FORCE
};

class ConsoleReporter : public run::Listener, public CheckListener {
 public:
  ConsoleReporter(std::FILE* out, ConsoleStyle style, int tail_lines = 30)
      : out_(out), style_(style), tail_lines_(tail_lines) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override;
  void stage_finished(const run::StageRecord& record) override;
  void check_finished(const run::StageRecord& record, const CheckDetails& check) override;
  void tick(double run_seconds) override;
  void run_finished(const run::RunSummary& summary) override;

 private:
  struct Running {
    std::string id;
    double start_seconds = 0;
    long minutes_reported = 0;
  };

  // What comes from a log, a config, a path or a result file is shown as visible text
  // (core/visible_text.h): only the reporter's own colours and status-line rewrites act on
  // the terminal. line() makes its text visible; status() and shown_line() write text made
  // visible already, where paint() (which makes its text visible too) added colours.
  void status(const std::string& shown);
  void line(const std::string& text);
  void shown_line(const std::string& shown);
  std::string paint(const std::string& text, run::Status status) const;
  void failure_details(const run::StageRecord& record);
  void gpu_warnings(const run::StageRecord& record);
  void flush_pending_details();
  void unsupported_summary(const run::RunVerdict& verdict);
  void recap(const std::vector<run::StageRecord>& stages);
  // The stage's id, after its config's label (config_labels.h) when the run has several configs.
  std::string stage_name(const run::StageRecord& record) const;

  std::FILE* out_;
  ConsoleStyle style_;
  int tail_lines_;
  std::size_t total_ = 0, done_ = 0;
  bool status_shown_ = false;
  std::map<const plan::Stage*, Running> running_;
  std::map<const plan::Plan*, std::string> config_labels_;  // a suite's: "ResNet50/train_infer_python.txt"
  std::vector<std::string> plan_labels_;                    // the same, by the plan's number
  // A failed check's command and log tail wait for its values (check_finished follows).
  std::optional<run::StageRecord> pending_details_;
  std::map<std::string, std::string> failed_checks_;  // check_failures_text -> the first check's id
  std::set<std::string> gpu_warnings_shown_;
};

// "4m", "1h 05m": how long a stage has been running, in whole minutes.
std::string running_time(long minutes);
// The run's last line: its verdict and why, e.g. "tipc-run: PASS (partial: 3 of 13 stages
// could not run): could not run: 3 stages: needs 1 GPU; none available".
std::string verdict_line(const run::RunVerdict& verdict, const run::VerdictRules& rules);

// The last `lines` lines of a file (reads at most the last 64 KiB).
std::string log_tail(const std::string& path, int lines);

}  // namespace tipc::report
