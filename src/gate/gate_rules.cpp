#include "gate/gate_rules.h"

#include <fnmatch.h>

namespace tipc::gate {
namespace {

bool glob_matches(const std::string& glob, const std::string& text) {
  return glob == text || fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

}  // namespace

const char* to_string(Severity severity) { return severity == Severity::kFail ? "fail" : "warn"; }

GateRules rules_from_settings(const std::vector<config::GateSetting>& gates) {
  GateRules rules;
  for (const config::GateSetting& gate : gates) {
    GateRule rule;
    rule.metric = gate.metric;
    rule.stage = gate.stage;
    if (gate.higher_is_better) rule.better = *gate.higher_is_better ? stats::Better::kHigher : stats::Better::kLower;
    rule.change.relative_threshold = gate.threshold.value_or(rules.defaults.relative_threshold);
    rule.change.absolute_threshold = gate.absolute;
    rule.change.minimum_change = gate.minimum.value_or(rules.defaults.minimum_change);
    rule.severity = gate.severity == config::GateSeverity::kWarn ? Severity::kWarn : Severity::kFail;
    rule.ignore = gate.ignore;
    rule.source = gate.source;
    rules.rules.push_back(std::move(rule));
  }
  return rules;
}

std::optional<AppliedRule> rule_for(const GateRules& rules, const Figure& figure, const std::string& stage_id) {
  for (const GateRule& rule : rules.rules) {
    if (!glob_matches(rule.metric, figure.name) || !glob_matches(rule.stage, stage_id)) continue;
    if (rule.ignore) return std::nullopt;
    AppliedRule applied{rule.change, rule.severity, rule.source};
    applied.change.better = rule.better.value_or(figure.better);
    return applied;
  }
  if (!figure.gated_by_default) return std::nullopt;
  AppliedRule applied{rules.defaults, rules.default_severity, ""};
  applied.change.better = figure.better;
  return applied;
}

}  // namespace tipc::gate
