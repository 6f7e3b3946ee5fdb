#include "gate/run_comparison.h"

#include <map>
#include <tuple>

#include <fmt/format.h>

namespace tipc::gate {
namespace {

using StageKey = std::tuple<std::string, std::string, std::string>;  // config, mode, stage id

StageKey key_of(const StageSnapshot& stage) { return {stage.config, stage.mode, stage.stage}; }

StageComparison named(const StageKey& key) {
  StageComparison stage;
  std::tie(stage.config, stage.mode, stage.stage) = key;
  return stage;
}

// Only a stage that ran has a result to compare: one that was skipped or could not run here
// says nothing about the code.
bool ran(run::Status status) { return run::is_passed(status) || run::is_failure(status); }

struct Pooling {
  std::size_t base_runs = 1, current_runs = 1;
};

void classify_result(StageComparison& out, const StageSnapshot* base, const StageSnapshot* current) {
  out.base_result = base ? std::optional(base->result) : std::nullopt;
  out.current_result = current ? std::optional(current->result) : std::nullopt;
  const bool base_ran = base && ran(base->result), current_ran = current && ran(current->result);
  if (!base_ran || !current_ran) {
    out.result = base_ran ? Class::kGone : current_ran ? Class::kNew : Class::kUnchanged;
    out.why =
        base_ran ? fmt::format("{} -> {}", to_string(base->result), current ? to_string(current->result) : "not run")
        : current_ran ? fmt::format("{} -> {}", base ? to_string(base->result) : "not run", to_string(current->result))
                      : "ran in neither";
    return;
  }
  out.why = fmt::format("{} -> {}", to_string(base->result), to_string(current->result));
  const bool was = run::is_passed(base->result), is = run::is_passed(current->result);
  out.result = was == is ? Class::kUnchanged : is ? Class::kImproved : Class::kRegressed;
}

// Against a pool of runs, a single run is one sample: its median (its steps are no runs).
std::vector<double> samples_of(const Figure& figure, const Pooling& pooling, bool base_side) {
  const bool single = base_side ? pooling.base_runs == 1 : pooling.current_runs == 1;
  if (!single || (pooling.base_runs == 1 && pooling.current_runs == 1)) return figure.samples;
  return {stats::median(figure.samples)};
}

FigureComparison compare_figure(const Figure& figure, const Figure* base, const AppliedRule& rule,
                                const Pooling& pooling) {
  const std::vector<double> current = samples_of(figure, pooling, false);
  FigureComparison out{figure.name, figure.unit, Class::kUnchanged, rule.severity, {}, 0, current.size(), rule.source};
  if (!base) {
    out.result = Class::kNew;
    out.comparison.current = stats::median(current);
    return out;
  }
  const std::vector<double> before = samples_of(*base, pooling, true);
  out.base_samples = before.size();
  out.comparison = stats::compare_samples(before, current, rule.change);
  out.result = out.comparison.change == stats::Change::kRegressed  ? Class::kRegressed
               : out.comparison.change == stats::Change::kImproved ? Class::kImproved
                                                                   : Class::kUnchanged;
  return out;
}

// Figures are compared only between runs of a stage that passed on both sides: a failed
// stage's figures describe a broken run, and its result already says so.
void compare_figures(StageComparison& out, const StageSnapshot& base, const StageSnapshot& current,
                     const GateRules& rules, const Pooling& pooling) {
  if (!run::is_passed(base.result) || !run::is_passed(current.result)) return;
  const std::vector<Figure>&before = base.figures, &after = current.figures;
  std::map<std::string, const Figure*> by_name;
  for (const Figure& figure : before) by_name[figure.name] = &figure;
  for (const Figure& figure : after) {
    const auto rule = rule_for(rules, figure, current.stage);
    if (!rule) continue;
    const auto found = by_name.find(figure.name);
    out.figures.push_back(compare_figure(figure, found == by_name.end() ? nullptr : found->second, *rule, pooling));
    if (found != by_name.end()) by_name.erase(found);
  }
  for (const Figure& figure : before) {
    const auto rule = rule_for(rules, figure, base.stage);
    if (!rule || !by_name.contains(figure.name)) continue;
    FigureComparison gone{figure.name,           figure.unit, Class::kGone, rule->severity, {},
                          figure.samples.size(), 0,           rule->source};
    gone.comparison.base = stats::median(figure.samples);
    out.figures.push_back(std::move(gone));
  }
}

}  // namespace

const char* to_string(Class c) {
  switch (c) {
    case Class::kRegressed: return "REGRESSED";
    case Class::kImproved: return "IMPROVED";
    case Class::kUnchanged: return "UNCHANGED";
    case Class::kNew: return "NEW";
    case Class::kGone: return "GONE";
  }
  return "UNCHANGED";
}

bool RunComparison::failed() const {
  for (const auto& stage : stages) {
    if (stage.result == Class::kRegressed) return true;
    for (const auto& figure : stage.figures) {
      if (fails(figure.result, figure.severity)) return true;
    }
  }
  return false;
}

std::size_t RunComparison::count(Class c) const {
  std::size_t n = 0;
  for (const auto& stage : stages) {
    n += stage.result == c ? 1 : 0;
    for (const auto& figure : stage.figures) n += figure.result == c ? 1 : 0;
  }
  return n;
}

RunComparison compare_runs(const RunSnapshot& base, const RunSnapshot& current, const GateRules& rules) {
  std::map<StageKey, const StageSnapshot*> before;
  for (const StageSnapshot& stage : base.stages) before[key_of(stage)] = &stage;
  RunComparison out;
  for (const StageSnapshot& now : current.stages) {
    StageComparison stage = named(key_of(now));
    const auto found = before.find(key_of(now));
    const StageSnapshot* earlier = found == before.end() ? nullptr : found->second;
    classify_result(stage, earlier, &now);
    if (earlier) compare_figures(stage, *earlier, now, rules, {base.runs, current.runs});
    if (found != before.end()) before.erase(found);
    out.stages.push_back(std::move(stage));
  }
  for (const StageSnapshot& gone : base.stages) {
    if (!before.contains(key_of(gone))) continue;
    StageComparison stage = named(key_of(gone));
    classify_result(stage, &gone, nullptr);
    out.stages.push_back(std::move(stage));
  }
  return out;
}

}  // namespace tipc::gate
