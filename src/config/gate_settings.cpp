#include "config/gate_settings.h"

#include <charconv>

#include <fmt/format.h>

#include "config/yaml_file.h"

namespace tipc::config {
namespace {

std::optional<double> fraction(YamlReader& r, const YAML::Node& map, const std::string& key) {
  if (!r.child(map, key)) return std::nullopt;
  const std::string text = r.str(map, key);
  const auto value = fraction_of(text);
  if (!value) r.problem(r.child(map, key), key, fmt::format("'{}' is no fraction: write 5% or 0.05", text));
  return value;
}

std::optional<double> amount(YamlReader& r, const YAML::Node& map, const std::string& key) {
  const YAML::Node node = r.child(map, key);
  return node ? r.non_negative(node, key, "expected a number") : std::nullopt;
}

GateSetting read_gate(YamlReader& r, const YAML::Node& item, const std::string& path) {
  r.check_keys(item, "a gate");
  GateSetting gate;
  gate.metric = r.str(item, "metric");
  if (gate.metric.empty()) r.problem(item, "metric", "a gate names the figures it applies to (metric: ips)");
  gate.stage = r.str(item, "stage", "*");
  if (r.child(item, "better"))
    gate.higher_is_better = r.one_of(item, "better", {"higher", "lower"}, "higher") == "higher";
  gate.threshold = fraction(r, item, "threshold");
  gate.minimum = fraction(r, item, "minimum");
  gate.absolute = amount(r, item, "absolute");
  gate.severity =
      r.one_of(item, "severity", {"fail", "warn"}, "fail") == "warn" ? GateSeverity::kWarn : GateSeverity::kFail;
  gate.ignore = r.boolean(item, "ignore", false);
  gate.source = fmt::format("{}:{}", path, yaml_line(item));
  return gate;
}

}  // namespace

std::optional<double> fraction_of(const std::string& text) {
  const bool percent = text.ends_with('%');
  const std::string_view number(text.data(), text.size() - (percent ? 1 : 0));
  double value = -1;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || number.empty() || value < 0) return std::nullopt;
  return percent ? value / 100 : value;
}

std::vector<GateSetting> read_gates(YamlReader& reader, const YAML::Node& list, const std::string& path) {
  std::vector<GateSetting> gates;
  for (const auto& item : list) {
    if (item.IsMap())
      gates.push_back(read_gate(reader, item, path));
    else
      reader.problem(item, "gates", "a gate is a map (metric:, threshold:, ...)");
  }
  return gates;
}

}  // namespace tipc::config
