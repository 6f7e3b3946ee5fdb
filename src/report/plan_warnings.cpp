#include "report/plan_warnings.h"

#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace tipc::report {

std::vector<SuiteWarning> suite_warnings(const std::vector<plan::Plan>& plans) {
  using Key = std::tuple<int, std::string, std::string>;  // line, key, message: the file is each config's own
  std::map<Key, std::size_t> index;
  std::vector<SuiteWarning> warnings;
  std::vector<std::set<std::size_t>> plans_of;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    for (const auto& diagnostic : plans[p].warnings) {
      const auto [it, added] = index.emplace(Key{diagnostic.line, diagnostic.key, diagnostic.message}, warnings.size());
      if (added) {
        warnings.push_back({diagnostic, 0, true});
        plans_of.emplace_back();
      }
      SuiteWarning& warning = warnings[it->second];
      warning.one_file = warning.one_file && warning.first.file == diagnostic.file;
      if (plans_of[it->second].insert(p).second) ++warning.configs;
    }
  }
  return warnings;
}

std::string warning_text(const SuiteWarning& warning) {
  if (warning.configs < 2) return warning.first.str();
  if (warning.one_file) return fmt::format("{} ({} configs)", warning.first.str(), warning.configs);
  return fmt::format("{} configs, e.g. {}", warning.configs, warning.first.str());
}

void print_plan_warnings(const std::vector<plan::Plan>& plans, std::ostream& out) {
  for (const auto& warning : suite_warnings(plans)) out << "tipc-run: warning: " << warning_text(warning) << '\n';
}

}  // namespace tipc::report
