#include "cli/suite_modes.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/modes_command.h"
#include "core/plural.h"
#include "plan/mode_split.h"
#include "report/report_text.h"

namespace tipc::cli {
namespace fs = std::filesystem;
namespace {

void add_plans(Suite& suite, Suite part) {
  suite.configs += part.configs;
  suite.traced += part.traced;
  for (auto& plan : part.plans) suite.plans.push_back(std::move(plan));
  suite.problems.insert(suite.problems.end(), part.problems.begin(), part.problems.end());
  suite.invalid_files.insert(suite.invalid_files.end(), part.invalid_files.begin(), part.invalid_files.end());
  for (const auto& runner : part.runners) {
    if (std::ranges::find(suite.runners, runner) == suite.runners.end()) suite.runners.push_back(runner);
  }
}

}  // namespace

Result<Suite> plan_suite(const plan::SelectedConfigs& selected, const Project& project, const SuiteRequest& given) {
  const auto& chains = project.chains;
  const bool split_here = selected.directory && chains;
  if (!split_here && given.modes.size() <= 1) return plan_configs(selected.files, project, given);
  plan::ModeSplit split;
  if (split_here) {
    split = TRY(plan::split_by_mode(selected.files, given.modes, *chains));
  } else {  // one config (or no chains.yaml): each MODE as given, its errors the planner's
    for (const auto& mode : given.modes) {
      split.by_mode.push_back({mode, {}});
      for (std::size_t i = 0; i < selected.files.size(); ++i) split.by_mode.back().second.push_back(i);
    }
  }
  Suite suite;
  for (const auto& [mode, indices] : split.by_mode) {
    SuiteRequest one = given;
    one.mode = mode;
    one.modes = {mode};
    std::vector<plan::ConfigFile> files;
    for (std::size_t i : indices) files.push_back(selected.files[i]);
    add_plans(suite, TRY(plan_mode_configs(files, project, one)));
  }
  suite.in_other_modes = std::move(split.taking_none);
  TRY(finish_suite(suite, project, given));
  return suite;
}

std::string configs_taking_no_mode_line(const Suite& suite, const std::vector<std::string>& modes) {
  const std::size_t count = suite.in_other_modes.size();
  if (count == 0) return "";
  return fmt::format("tipc-run: {} {} none of the MODEs {}, not run: {}\n", plural(count, "config"),
                     count == 1 ? "takes" : "take", fmt::join(modes, ","),
                     report::configs_in_other_modes_by_chain(suite.in_other_modes));
}

}  // namespace tipc::cli
