#include "run/run_verdict.h"

#include <fmt/format.h>

#include "core/error.h"

namespace tipc::run {
namespace {

std::string stages_text(int n) { return fmt::format("{} stage{}", n, n == 1 ? "" : "s"); }

// A dependent's reason names its dependency ("dependency train UNSUPPORTED"): grouped
// under one heading, so that the reasons left are the causes.
std::string cause(const StageResult& stage) {
  return stage.reason.starts_with("dependency ") ? kAfterOneThatCouldNotRun : stage.reason;
}

// "6 stages: needs 1 GPU; none available | 4 stages: a dependency could not run" (the
// reasons hold semicolons); dependents last.
std::string grouped_reasons(const std::map<std::string, int>& reasons) {
  std::string causes, dependents;
  for (const auto& [reason, n] : reasons) {
    std::string& text = reason == kAfterOneThatCouldNotRun ? dependents : causes;
    text += fmt::format("{}{}: {}", text.empty() ? "" : " | ", stages_text(n), reason.empty() ? "no reason given" : reason);
  }
  return causes.empty() || dependents.empty() ? causes + dependents : causes + " | " + dependents;
}

}  // namespace

RunVerdict judge(const std::vector<StageResult>& stages, bool interrupted) {
  RunVerdict verdict;
  verdict.stages = static_cast<int>(stages.size());
  for (const StageResult& stage : stages) {
    if (stage.result == Status::kPass) {
      ++verdict.passed;
    } else if (is_failure(stage.result)) {
      ++verdict.failed;
      verdict.failed_earlier += stage.earlier ? 1 : 0;
    } else {
      ++verdict.could_not_run;
      verdict.unsupported += stage.result == Status::kUnsupported ? 1 : 0;
      ++verdict.reasons[cause(stage)];
    }
  }
  verdict.kind = interrupted                    ? VerdictKind::kInterrupted
                 : verdict.failed > 0           ? VerdictKind::kFail
                 : verdict.passed == 0          ? VerdictKind::kNothingRan
                 : verdict.could_not_run > 0    ? VerdictKind::kPartial
                                                : VerdictKind::kPass;
  return verdict;
}

const char* RunVerdict::word() const {
  switch (kind) {
    case VerdictKind::kPass: return "PASS";
    case VerdictKind::kPartial: return "PARTIAL";
    case VerdictKind::kNothingRan: return "NOTHING RAN";
    case VerdictKind::kFail: return "FAIL";
    case VerdictKind::kInterrupted: return "INTERRUPTED";
  }
  return "FAIL";
}

std::string RunVerdict::headline() const {
  switch (kind) {
    case VerdictKind::kPartial:
      return fmt::format("PASS (partial: {} of {} could not run)", could_not_run, stages_text(stages));
    case VerdictKind::kNothingRan:
      return fmt::format("NOTHING RAN ({} of {} could not run)", could_not_run, stages_text(stages));
    case VerdictKind::kFail:
      return failed_earlier > 0 ? fmt::format("FAIL ({} of {} failed, {} of them in an earlier run)", failed,
                                              stages_text(stages), failed_earlier)
                                : fmt::format("FAIL ({} of {} failed)", failed, stages_text(stages));
    default: return word();
  }
}

std::string RunVerdict::explanation() const {
  switch (kind) {
    case VerdictKind::kNothingRan:
      return stages == 0 ? "nothing ran: no stage was planned or selected"
                         : "nothing could run here: " + grouped_reasons(reasons);
    case VerdictKind::kPartial: return "could not run: " + grouped_reasons(reasons);
    default: return "";
  }
}

int RunVerdict::exit_code(const VerdictRules& rules) const {
  switch (kind) {
    case VerdictKind::kInterrupted: return kExitInterrupted;
    case VerdictKind::kFail: return kExitFailed;
    case VerdictKind::kNothingRan:
      return rules.allow_nothing && !(rules.strict && unsupported > 0) ? kExitPassed : kExitFailed;
    default: return rules.strict && unsupported > 0 ? kExitFailed : kExitPassed;
  }
}

int exit_code_with_invalid_configs(int exit_code, bool any_invalid_config) {
  return exit_code == kExitPassed && any_invalid_config ? kExitUsage : exit_code;
}

}  // namespace tipc::run
