#include "report/report_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/config_labels.h"

namespace tipc::report {

std::string cut_text(std::string text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + "...";
}

std::string format_number(double value) { return fmt::format("{:.6g}", value); }

std::string check_value_line(const CheckValue& value) {
  const std::string limit =
      value.limit ? fmt::format(" {} limit {}", value.passed ? "<=" : ">", format_number(*value.limit)) : "";
  return fmt::format("{} = {}{}: {}", value.label, format_number(value.value), limit, value.passed ? "PASS" : "FAIL");
}

std::string check_failures_text(const CheckDetails& check) {
  std::string text;
  for (const CheckValue& value : check.values) {
    if (!value.passed) text += check_value_line(value) + "\n";
  }
  if (text.empty()) return "";
  for (const std::string& note : check.notes) text += "note: " + note + "\n";
  return text;
}

std::map<std::size_t, std::size_t> checks_failed_like_earlier(const PlanReport& plan) {
  std::map<std::string, std::size_t> first_with;
  std::map<std::size_t, std::size_t> earlier;
  for (std::size_t s = 0; s < plan.stages.size(); ++s) {
    if (!plan.stages[s].check) continue;
    const std::string failures = check_failures_text(*plan.stages[s].check);
    if (failures.empty()) continue;
    if (const auto [first, inserted] = first_with.emplace(failures, s); !inserted) earlier[s] = first->second;
  }
  return earlier;
}

std::vector<std::string> plan_labels(const RunReport& report, bool with_modes) {
  std::vector<ConfigRun> runs;
  for (const PlanReport& plan : report.plans) runs.push_back({plan.config, with_modes ? plan.mode : ""});
  return config_labels(runs);
}

std::string given_gpus(const RunReport& report) {
  return report.gpus.empty() ? "" : gpus_text(report.gpus, report.resources_source);
}

std::string gpus_text(const std::vector<std::string>& gpus, const std::string& source) {
  const std::string listed = gpus.empty() ? "none" : fmt::format("{}", fmt::join(gpus, ", "));
  return source.empty() || source == "none" ? listed : listed + " (" + source + ")";
}

std::string configs_in_other_modes_by_chain(const std::vector<plan::ConfigInOtherModes>& configs) {
  std::map<std::string, std::pair<std::size_t, std::vector<std::string>>> by_chain;  // chain -> count, its MODEs
  for (const auto& config : configs) {
    auto& [count, modes] = by_chain[config.chain];
    ++count;
    modes = config.modes;
  }
  std::vector<std::string> parts;
  for (const auto& [chain, group] : by_chain) {
    parts.push_back(chain.empty() ? fmt::format("{} of no chain", group.first)
                                  : fmt::format("{} {} ({})", group.first, chain, fmt::join(group.second, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace tipc::report
