#include "run/run_verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "core/error.h"

namespace tipc::run {
namespace {

std::string stages_text(int n) { return fmt::format("{} stage{}", n, n == 1 ? "" : "s"); }

// "dependency ID (not selected) REASON" -> REASON: why the left-out stage could never run.
std::string own_reason(const std::string& reason) {
  constexpr std::string_view kLeftOut = " (not selected) ";
  const std::size_t at = reason.find(kLeftOut);
  return reason.starts_with("dependency ") && at != std::string::npos ? reason.substr(at + kLeftOut.size()) : reason;
}

bool could_not_run(Status result) { return result == Status::kUnsupported || result == Status::kSkipped; }

// The stage at the root of each stage that could not run: itself, or, for one that could not
// run because a dependency could not ("dependency ID UNSUPPORTED"), that one's root.
std::vector<std::size_t> roots(const std::vector<StageResult>& stages) {
  std::map<std::pair<int, std::string>, std::size_t> index;
  for (std::size_t i = 0; i < stages.size(); ++i) index.emplace(std::pair{stages[i].plan, stages[i].id}, i);
  std::vector<std::size_t> root(stages.size());
  std::vector<bool> resolved(stages.size(), false);
  // Dependencies come first in a plan, but a caller's order is not relied on.
  const auto find_root = [&](const auto& self, std::size_t i) -> std::size_t {
    if (resolved[i]) return root[i];
    root[i] = i;
    resolved[i] = true;  // set before recursing: a cycle ends here instead of looping
    if (stages[i].reason.starts_with("dependency ")) {
      for (const std::string& dep : stages[i].deps) {
        const auto it = index.find({stages[i].plan, dep});
        if (it != index.end() && could_not_run(stages[it->second].result)) {
          root[i] = self(self, it->second);
          break;
        }
      }
    }
    return root[i];
  };
  for (std::size_t i = 0; i < stages.size(); ++i) find_root(find_root, i);
  return root;
}

// "6 stages: needs 1 GPU; none available | 4 stages: not started (the run ended before it)"
// (the reasons hold semicolons).
std::string grouped_reasons(const std::vector<CouldNotRunGroup>& groups) {
  std::string text;
  for (const CouldNotRunGroup& group : groups) {
    text += fmt::format("{}{}: {}", text.empty() ? "" : " | ", stages_text(static_cast<int>(group.ids.size())),
                        group.reason.empty() ? "no reason given" : group.reason);
  }
  return text;
}

}  // namespace

std::vector<CouldNotRunGroup> group_could_not_run(const std::vector<StageResult>& stages) {
  const std::vector<std::size_t> root = roots(stages);
  std::vector<CouldNotRunGroup> groups;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (!could_not_run(stages[i].result)) continue;
    const StageResult& cause = stages[root[i]];
    const std::string reason = own_reason(cause.reason);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const CouldNotRunGroup& g) {
      return g.reason == reason && g.status == cause.result;
    });
    if (group == groups.end()) group = groups.insert(groups.end(), {reason, cause.result, {}, {}});
    group->ids.push_back(stages[i].id);
    group->plans.push_back(stages[i].plan);
  }
  return groups;
}

namespace {

VerdictKind kind_of(const RunVerdict& verdict, bool interrupted) {
  if (interrupted) return VerdictKind::kInterrupted;
  if (verdict.stage_failed() || verdict.configs.invalid > 0) return VerdictKind::kFail;
  if (!verdict.own_ran) return VerdictKind::kNothingRan;
  if (verdict.regressed()) return VerdictKind::kFail;
  return verdict.could_not_run > 0 ? VerdictKind::kPartial : VerdictKind::kPass;
}

}  // namespace

RunVerdict judge(const std::vector<StageResult>& stages, bool interrupted, ConfigCount configs,
                 BaselineRegressions regressions) {
  RunVerdict verdict;
  verdict.stages = static_cast<int>(stages.size());
  verdict.configs = configs;
  verdict.regressions = std::move(regressions);
  for (const StageResult& stage : stages) {
    if (is_passed(stage.result)) {
      ++verdict.passed;
      verdict.flaky += stage.result == Status::kFlaky ? 1 : 0;
    } else if (is_failure(stage.result)) {
      ++verdict.failed;
      verdict.failed_earlier += stage.earlier ? 1 : 0;
    } else {
      ++verdict.could_not_run;
      verdict.unsupported += stage.result == Status::kUnsupported ? 1 : 0;
    }
    verdict.own_stages += stage.earlier ? 0 : 1;
    verdict.setup_passed += stage.setup && !stage.earlier && is_passed(stage.result) ? 1 : 0;
    const bool ran = (is_passed(stage.result) && !stage.setup) || is_failure(stage.result);
    verdict.own_ran = verdict.own_ran || (ran && !stage.earlier) || stage.resumed;
  }
  verdict.could_not_run_groups = group_could_not_run(stages);
  verdict.kind = kind_of(verdict, interrupted);
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

namespace {

// "1 of 4 configs invalid"
std::string invalid_text(const ConfigCount& configs) {
  return fmt::format("{} of {} config{} invalid", configs.invalid, configs.given, configs.given == 1 ? "" : "s");
}

std::string failure_headline(const RunVerdict& v) {
  std::vector<std::string> parts;
  if (v.stage_failed()) {
    parts.push_back(v.failed_earlier > 0 ? fmt::format("{} of {} failed, {} of them in an earlier run", v.failed,
                                                       stages_text(v.stages), v.failed_earlier)
                                         : fmt::format("{} of {} failed", v.failed, stages_text(v.stages)));
  }
  if (v.configs.invalid > 0) parts.push_back(invalid_text(v.configs));
  if (v.regressed()) {
    parts.push_back(fmt::format("{} regression{} against {}", v.regressions.count, v.regressions.count == 1 ? "" : "s",
                                v.regressions.baseline));
  }
  if (v.flaky > 0) parts.push_back(fmt::format("{} flaky", v.flaky));
  return fmt::format("FAIL ({})", fmt::join(parts, "; "));
}

}  // namespace

std::string RunVerdict::headline() const {
  // "; 1 flaky" (or "1 of 13 stages flaky" alone): a pass that needed a retry is never a silent PASS.
  const std::string flaky_note = flaky == 0 ? "" : fmt::format("; {} flaky", flaky);
  switch (kind) {
    case VerdictKind::kPass:
      return flaky == 0 ? word() : fmt::format("PASS ({} of {} flaky)", flaky, stages_text(stages));
    case VerdictKind::kPartial:
      return fmt::format("PASS (partial: {} of {} could not run{})", could_not_run, stages_text(stages), flaky_note);
    case VerdictKind::kNothingRan:
      if (could_not_run == 0 && setup_passed > 0)
        return fmt::format("NOTHING RAN (only setup: {})", stages_text(stages));
      return fmt::format("NOTHING RAN ({} of {} could not run)", could_not_run, stages_text(stages));
    case VerdictKind::kFail: return failure_headline(*this);
    default: return word();
  }
}

std::string RunVerdict::explanation() const {
  switch (kind) {
    case VerdictKind::kNothingRan:
      if (own_stages == 0) return "nothing ran: no stage was planned or selected";
      if (could_not_run == 0) return "nothing ran but the runner's setup: the plan has no stage that tests anything";
      return "nothing could run here: " + grouped_reasons(could_not_run_groups);
    case VerdictKind::kPartial: return "could not run: " + grouped_reasons(could_not_run_groups);
    default: return "";
  }
}

int RunVerdict::exit_code(const VerdictRules& rules) const {
  const bool strict_fails = rules.strict && unsupported > 0;
  switch (kind) {
    case VerdictKind::kInterrupted: return kExitInterrupted;
    case VerdictKind::kFail:
      if (stage_failed()) return kExitFailed;
      if (configs.invalid > 0) return kExitUsage;
      return strict_fails ? kExitFailed : kExitRegressed;
    case VerdictKind::kNothingRan:
      if (strict_fails) return kExitFailed;
      return rules.allow_nothing ? kExitPassed : kExitNothingRan;
    default: return strict_fails ? kExitFailed : kExitPassed;
  }
}

}  // namespace tipc::run
