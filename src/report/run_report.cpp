#include "report/run_report.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <set>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "run/outcome.h"

namespace tipc::report {

int RunReport::count(run::Status result) const {
  int n = 0;
  for (const auto& plan : plans) {
    for (const auto& stage : plan.stages) n += stage.result == result ? 1 : 0;
  }
  return n;
}

run::ConfigCount RunReport::config_count() const {
  std::set<std::string> invalid_files;
  for (const auto& problem : invalid_configs) invalid_files.insert(problem.file);
  std::set<std::string> planned;
  for (const auto& plan : plans) planned.insert(plan.config);
  const auto invalid = static_cast<int>(invalid_files.size());
  return {static_cast<int>(planned.size()) + invalid, invalid};
}

namespace {

void add_stage_results(const PlanReport& plan, int number, std::vector<run::StageResult>& results) {
  for (const auto& stage : plan.stages) {
    // A stage the run did not select is no stage of its own, whatever its result.
    const bool earlier = stage.earlier_run.has_value() || !stage.selected;
    results.push_back({stage.result, stage.reason, earlier, number, stage.id, stage.deps, stage.resumed,
                       stage.kind == plan::StageKind::kSetup});
  }
}

}  // namespace

run::RunVerdict plan_verdict(const PlanReport& plan) {
  std::vector<run::StageResult> results;
  add_stage_results(plan, 0, results);
  return run::judge(results, false, {1, 0});
}

run::RunVerdict RunReport::verdict() const {
  std::vector<run::StageResult> results;
  for (std::size_t plan = 0; plan < plans.size(); ++plan)
    add_stage_results(plans[plan], static_cast<int>(plan), results);
  run::BaselineRegressions regressions;
  if (baseline) regressions = {static_cast<int>(baseline->regressions.size()), baseline->baseline};
  return run::judge(results, interrupted, config_count(), regressions);
}

int RunReport::exit_code(const run::VerdictRules& rules) const { return verdict().exit_code(rules); }

double closeness_to_limit(const CheckValue& value) {
  if (std::isnan(value.value)) return std::numeric_limits<double>::infinity();
  return value.limit && *value.limit > 0 ? value.value / *value.limit : value.value;
}

const char* check_kind_word(const CheckDetails& check) { return check.kind ? to_string(*check.kind) : "check"; }

std::vector<const CheckValue*> headline_values(const CheckDetails& check, std::size_t max_failing,
                                               std::size_t nearest) {
  std::vector<const CheckValue*> values;
  for (const auto& value : check.values) values.push_back(&value);
  std::stable_sort(values.begin(), values.end(), [](const CheckValue* a, const CheckValue* b) {
    return closeness_to_limit(*a) > closeness_to_limit(*b);
  });
  const auto failing = static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [](const CheckValue* v) { return !v->passed; }));
  values.resize(std::min(values.size(), failing > 0 ? std::min(failing, max_failing) : nearest));
  return values;
}

bool needs_attention(run::Status result) { return run::is_failure(result); }

std::string earlier_run_note(const StageReport& stage) {
  if (!stage.earlier_run) return "";
  const EarlierRun& run = *stage.earlier_run;
  const std::string when =
      run.started ? fmt::format("{:%Y-%m-%d %H:%M:%S} UTC", fmt::gmtime(static_cast<std::time_t>(*run.started)))
                  : "an unknown time";
  return fmt::format("from an earlier run at {}{}", when, run.same_command ? "" : "; its command has changed since");
}

std::string cluster_job_label(const std::string& job_id, const std::string& nodes) {
  if (job_id.empty()) return "";
  return nodes.empty() ? "job " + job_id : fmt::format("job {} on {}", job_id, nodes);
}

}  // namespace tipc::report
