#include "cli/suite_modes.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/modes_command.h"
#include "core/plural.h"
#include "report/report_text.h"

namespace tipc::cli {
namespace fs = std::filesystem;
namespace {

bool lists(const std::vector<std::string>& modes, const std::string& mode) {
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

// The MODEs `file` takes (dialect::chain_modes: the MODEs whose chosen chain lists
// them); none for a config that cannot be read.
std::vector<std::string> modes_of(const ConfigFile& file, const dialect::Chains& chains) {
  if (!file.text) return {};
  return dialect::chain_modes(chains, dialect::config_header(file.text->header_line()),
                              fs::path(file.path).filename().string());
}

// The MODEs some config of `files` takes, in the order chains.yaml lists them.
std::vector<std::string> modes_taken(const std::vector<ConfigFile>& files, const dialect::Chains& chains) {
  std::set<std::string> any;
  for (const auto& file : files) {
    for (auto& mode : modes_of(file, chains)) any.insert(std::move(mode));
  }
  std::vector<std::string> taken;
  for (const auto& chain : chains.chains) {
    for (const auto& mode : chain.modes) {
      if (any.count(mode) > 0 && !lists(taken, mode)) taken.push_back(mode);
    }
  }
  return taken;
}

// "MODE 'x': no config of this directory takes it (the chains that have it: a, b; its
// configs take: ...)": once for the suite, not once per config.
Error no_config_takes(const std::string& mode, const std::vector<ConfigFile>& files, const dialect::Chains& chains) {
  std::vector<std::string> having;
  for (const auto& chain : chains.chains) {
    if (lists(chain.modes, mode)) having.push_back(chain.name);
  }
  const std::string which = having.empty() ? "no chain of chains.yaml has it"
                                           : fmt::format("the chains that have it: {}", fmt::join(having, ", "));
  return Error::plain(fmt::format("MODE '{}': no config of this directory takes it ({}; its configs take: {})", mode,
                                  which, fmt::join(modes_taken(files, chains), ", ")));
}

// A config that takes no MODE, with the chain it is of in the first MODE.
void note_taking_none(const ConfigFile& file, const dialect::Chains& chains, const std::string& first_mode,
                      ModeSplit& split) {
  const dialect::Chain* chain = dialect::chain_of_config(chains, *file.text, first_mode);
  split.taking_none.push_back({file.path, chain ? chain->name : "", chain ? chain->modes : std::vector<std::string>{}});
}

void add_plans(Suite& suite, Suite part) {
  suite.configs += part.configs;
  suite.traced += part.traced;
  for (auto& plan : part.plans) suite.plans.push_back(std::move(plan));
  suite.problems.insert(suite.problems.end(), part.problems.begin(), part.problems.end());
  suite.invalid_files.insert(suite.invalid_files.end(), part.invalid_files.begin(), part.invalid_files.end());
  for (const auto& runner : part.runners) {
    if (!lists(suite.runners, runner)) suite.runners.push_back(runner);
  }
}

}  // namespace

Result<ModeSplit> split_by_mode(const std::vector<ConfigFile>& files, const std::vector<std::string>& modes,
                                const dialect::Chains& chains) {
  ModeSplit split;
  for (const auto& mode : modes) split.by_mode.push_back({mode, {}});
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].text) {  // planned once, in the first MODE, and reported invalid with the reader's reason
      split.by_mode.front().second.push_back(i);
      continue;
    }
    const std::vector<std::string> its_modes = modes_of(files[i], chains);
    bool taken = false;
    for (auto& [mode, indices] : split.by_mode) {
      if (!lists(its_modes, mode)) continue;
      indices.push_back(i);
      taken = true;
    }
    if (!taken) note_taking_none(files[i], chains, modes.front(), split);
  }
  for (const auto& [mode, indices] : split.by_mode) {
    if (indices.empty()) return fail(no_config_takes(mode, files, chains));
  }
  return split;
}

Result<Suite> plan_suite(const SelectedConfigs& selected, const Project& project, const Options& options) {
  const auto& chains = project.chains;
  const bool split_here = selected.directory && chains;
  if (!split_here && options.modes.size() <= 1) return plan_configs(selected.files, project, options);
  ModeSplit split;
  if (split_here) {
    split = TRY(split_by_mode(selected.files, options.modes, *chains));
  } else {  // one config (or no chains.yaml): each MODE as given, its errors the planner's
    for (const auto& mode : options.modes) {
      split.by_mode.push_back({mode, {}});
      for (std::size_t i = 0; i < selected.files.size(); ++i) split.by_mode.back().second.push_back(i);
    }
  }
  Suite suite;
  for (const auto& [mode, indices] : split.by_mode) {
    Options one = options;
    one.mode = mode;
    one.modes = {mode};
    std::vector<ConfigFile> files;
    for (std::size_t i : indices) files.push_back(selected.files[i]);
    add_plans(suite, TRY(plan_mode_configs(files, project, one)));
  }
  suite.in_other_modes = std::move(split.taking_none);
  TRY(finish_suite(suite, project, options));
  return suite;
}

std::string configs_taking_no_mode_line(const Suite& suite, const std::vector<std::string>& modes) {
  const std::size_t count = suite.in_other_modes.size();
  if (count == 0) return "";
  return fmt::format("tipc-run: {} {} none of the MODEs {}, not run: {}\n", plural(count, "config"),
                     count == 1 ? "takes" : "take", fmt::join(modes, ","), report::configs_in_other_modes_by_chain(suite.in_other_modes));
}

}  // namespace tipc::cli
