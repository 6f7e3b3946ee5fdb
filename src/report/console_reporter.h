#pragma once
// What a person sees while a run goes: on a terminal one rewritten status line
// (`[done/total] stage-id`, ninja style), plain lines otherwise; every stage that did
// not pass gets a line, a failure also its command, exit status and last log lines; a
// failed check its failing values against their limits.
#include <cstdio>
#include <string>

#include "report/run_report.h"
#include "run/events.h"

namespace tipc::report {

struct ConsoleStyle {
  bool rewrite = false;  // a terminal: rewrite the status line in place
  bool color = false;
  static ConsoleStyle detect(int fd);  // isatty, TERM, NO_COLOR, CLICOLOR_FORCE
};

class ConsoleReporter : public run::Listener {
 public:
  ConsoleReporter(std::FILE* out, ConsoleStyle style, int tail_lines = 30)
      : out_(out), style_(style), tail_lines_(tail_lines) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override;
  void stage_finished(const run::StageRecord& record) override;
  void check_finished(const run::StageRecord& record, const CheckDetails& check) override;
  void run_finished(const run::RunSummary& summary) override;

 private:
  void status(const std::string& text);
  void line(const std::string& text);
  std::string paint(const std::string& text, run::Status status) const;

  std::FILE* out_;
  ConsoleStyle style_;
  int tail_lines_;
  std::size_t total_ = 0, done_ = 0;
  bool status_shown_ = false;
};

// The run's last line: its verdict and why, e.g. "tipc-run: PASS (partial: 3 of 13 stages
// could not run): could not run: 3 stages: needs 1 GPU; 0 available (none)".
std::string verdict_line(const run::RunVerdict& verdict, const run::VerdictRules& rules);

// The last `lines` lines of a file (reads at most the last 64 KiB).
std::string log_tail(const std::string& path, int lines);

}  // namespace tipc::report
