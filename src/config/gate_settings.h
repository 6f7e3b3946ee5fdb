#pragma once
// The settings file's `gates:` (docs/settings.md): which figures `tipc-run compare` and
// `--baseline` gate on, which way is better, the thresholds and the severity. Rules are
// tried in order; the first whose metric and stage globs match applies.
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/yaml_reader.h"

namespace tipc::config {

enum class GateSeverity { kWarn, kFail };

struct GateSetting {
  std::string metric;                    // a glob over figure names: "ips", "eval:*"
  std::string stage = "*";               // a glob over stage ids
  std::optional<bool> higher_is_better;  // `better: higher|lower`; unset: the figure's default
  std::optional<double> threshold;       // relative, as a fraction (`5%` or `0.05`)
  std::optional<double> absolute;        // in the figure's unit
  std::optional<double> minimum;         // relative floor, as a fraction
  GateSeverity severity = GateSeverity::kFail;
  bool ignore = false;
  std::string source;  // "test_tipc/tipc-run.yaml:12"
};

// Reads the `gates:` list; problems go to `reader` with their line and key.
std::vector<GateSetting> read_gates(YamlReader& reader, const YAML::Node& list, const std::string& path);

// "5%" -> 0.05, "0.05" -> 0.05; nullopt for anything else or a negative value.
std::optional<double> fraction_of(const std::string& text);

}  // namespace tipc::config
