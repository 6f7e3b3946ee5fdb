#include "plan/mode_split.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plan/plan_file.h"

namespace tipc::plan {
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

// The modes that the chains of the configs take beyond the dialect's, for an unknown MODE's
// error: "train_infer_python: klquant_whole_infer; benchmark_train: benchmark_train".
std::string other_chains_modes(const std::vector<ConfigFile>& files, const dialect::Chains& chains,
                               const dialect::Dialect& dialect) {
  std::map<std::string, std::vector<std::string>> modes;  // chain -> its modes the dialect lacks
  for (const auto& file : files) {
    if (!file.text) continue;
    const dialect::Chain* chain = dialect::chain_of_config(chains, *file.text, "");
    if (!chain) continue;
    auto& listed = modes[chain->name];
    for (const auto& mode : chain->modes) {
      const auto& known = dialect.known_modes;
      const bool new_mode = std::find(listed.begin(), listed.end(), mode) == listed.end();
      if (new_mode && std::find(known.begin(), known.end(), mode) == known.end()) listed.push_back(mode);
    }
  }
  std::vector<std::string> parts;
  for (const auto& [chain, its_modes] : modes) {
    if (!its_modes.empty()) parts.push_back(fmt::format("{}: {}", chain, fmt::join(its_modes, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
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

Result<void> check_suite_mode(const std::vector<ConfigFile>& files, const dialect::Dialect& dialect,
                              const dialect::Chains* chains, const std::string& mode) {
  if (chains && dialect::chain_knows_mode(*chains, mode)) return {};
  auto known = check_mode(dialect, mode);
  if (known || !chains) return known;
  const std::string others = other_chains_modes(files, *chains, dialect);
  if (others.empty()) return known;
  return fail(Error::plain(fmt::format("{}, nor one that the chains of these configs take ({})",
                                       known.error().diagnostics.front().message, others)));
}

}  // namespace tipc::plan
