#include "compat/run_semantics.h"

#include "compat/reference_status_log.h"
#include "report/results_log_reporter.h"

namespace tipc::compat {

RunSemantics run_semantics(bool reference, const std::string& repo_root, bool resume) {
  RunSemantics semantics;
  if (!reference) {
    semantics.results_log = std::make_unique<report::ResultsLogReporter>(repo_root, resume);
    return semantics;
  }
  semantics.appended_logs = {plan::StageKind::kTrain};
  semantics.multi_node_here = true;
  semantics.says_verdict = false;
  semantics.results_log = std::make_unique<ReferenceStatusLog>(repo_root);
  return semantics;
}

}  // namespace tipc::compat
