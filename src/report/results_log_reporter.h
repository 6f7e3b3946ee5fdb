#pragma once
// results_python.log as tipc-run writes it: a fresh file per run (D12 in docs/reference-runner.md), plain text, a line
// for each stage that ran, saying what really happened. The reference runner's log, byte for
// byte, is another listener on the same base (status_log.h).
#include <string>
#include <utility>

#include "report/status_log.h"
#include "run/outcome.h"

namespace tipc::report {

// Whether tipc-run's own line for a stage that ran reads "Run successfully": its result
// passed (PASS, FLAKY), as the exit code and the dependents take it.
bool line_reads_success(run::Status result);

class ResultsLogReporter : public StatusLog {
 public:
  // `keep_existing`: --resume continues the previous run's log.
  explicit ResultsLogReporter(std::string repo_root, bool keep_existing = false)
      : StatusLog(std::move(repo_root)), keep_existing_(keep_existing) {}

  void run_started(const run::RunInfo& info) override;
  // A line stands for a command tipc-run itself ran. A stage it never started has none:
  // UNRESOLVED (it could not), UNSUPPORTED (impossible here, as planned), SKIPPED (after a
  // failed dependency, --fail-fast, an interrupt), passed by --resume. Its word would be a
  // guess; the console and the reports give its result and why.
  void stage_finished(const run::StageRecord& record) override;

 private:
  bool keep_existing_;
};

}  // namespace tipc::report
