#pragma once
// results_python.log as the reference runner writes it, byte for byte, for --compat. What
// it does that tipc-run's own log (report/results_log_reporter.h) does not:
// - it appends to the log of earlier runs (D12 in docs/reference-runner.md): a run never empties it;
// - its lines keep the dialect's yellow escape codes;
// - a traced runner's lines for commands it never started (Plan::leading_status_lines,
//   Stage::results_log.trailing_status_lines) are written where it wrote them;
// - a service's line is written when it starts, with the status of `cmd &`;
// - the word of a line is the status its status_check was given, which is not always the
//   stage's result (reference_line_reads_success below);
// - a stage tipc-run could not start gets a line too: the runner's bash fails such a command
//   (126, 127, a failed `cd`), and its line says `Run failed`.
// A stage tipc-run never tried (UNSUPPORTED, SKIPPED, passed by --resume) has no line,
// although the runner, which stops for nothing, would have run it: its word would be a guess.
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "report/status_log.h"

namespace tipc::compat {

// What the reference's status_check is given for one command's line.
struct ReferenceCommandStatus {
  // A service, started with `cmd &`: the status is that of `&`, 0, whatever the server does later.
  bool in_background = false;
  // The command's exit code; none when it was killed or could not be started.
  std::optional<int> exit_code;
  // For a train command the reference follows with `cat train.log` (D2 in docs/reference-runner.md): whether the
  // trainer's own log exists. That `cat`'s status is the one checked, not the trainer's.
  std::optional<bool> trainer_log_exists;
  // The line reports another command's status (Stage::results_log.status_from, the conversion's
  // `$last_status` in PaddleClas' test_paddle2onnx.sh): that command's word, when it has one.
  std::optional<bool> reported_command_success;
};

// Whether the reference writes "Run successfully" on the line. Pure.
bool reference_line_reads_success(const ReferenceCommandStatus& status);

class ReferenceStatusLog : public report::StatusLog {
 public:
  explicit ReferenceStatusLog(std::string repo_root) : StatusLog(std::move(repo_root)) {}

  void run_started(const run::RunInfo& info) override;
  void stage_started(const run::StageRecord& record) override;
  void stage_finished(const run::StageRecord& record) override;

 private:
  void append_line(const run::StageRecord& record, bool success);

  // The word each stage's line got, by plan and stage id, for lines reporting another's status.
  std::map<std::pair<const plan::Plan*, std::string>, bool> words_;
};

}  // namespace tipc::compat
