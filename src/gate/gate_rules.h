#pragma once
// Which figures a comparison gates on, and how: the project's `gates:` rules (first match
// wins) over the defaults (every figure gated by default, with its default direction).
#include <optional>
#include <string>
#include <vector>

#include "config/gate_settings.h"
#include "gate/figures.h"
#include "stats/change.h"

namespace tipc::gate {

enum class Severity { kWarn, kFail };
const char* to_string(Severity severity);  // "warn", "fail"

struct GateRule {
  std::string metric;                   // a glob over figure names: "ips", "eval:*", "infer:*_ms"
  std::string stage = "*";              // a glob over stage ids
  std::optional<stats::Better> better;  // unset: the figure's default direction
  stats::ChangeRule change;             // thresholds (its `better` is replaced by the above)
  Severity severity = Severity::kFail;
  bool ignore = false;  // `ignore: true`: never gated
  std::string source;   // "test_tipc/tipc-run.yaml:12", for messages
};

struct GateRules {
  std::vector<GateRule> rules;
  stats::ChangeRule defaults;  // for a gated-by-default figure no rule names
  Severity default_severity = Severity::kFail;
};

// The settings file's `gates:` as rules, over the default thresholds.
GateRules rules_from_settings(const std::vector<config::GateSetting>& gates);

// How `figure` of stage `stage_id` is gated, or nullopt when it is not.
struct AppliedRule {
  stats::ChangeRule change;
  Severity severity = Severity::kFail;
  std::string source;  // the rule's, "" for the defaults
};
std::optional<AppliedRule> rule_for(const GateRules& rules, const Figure& figure, const std::string& stage_id);

}  // namespace tipc::gate
