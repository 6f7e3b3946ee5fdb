#include "plan/config_selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/plural.h"

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

// Whether a config's header or file name picks a chain (in any MODE: a chain that matches
// only some MODEs, benchmark_train, matches configs that another chain takes anyway).
bool of_a_chain(const config::ConfigText& text, const dialect::Chains* chains) {
  return chains && !dialect::config_header(text.header_line()).empty() &&
         dialect::chain_of_config(*chains, text, "") != nullptr;
}

}  // namespace

namespace {

bool excluded_by(const ConfigExclusion& exclusion, const fs::path& relative) {
  const auto matches = [&](const std::string& text) { return fnmatch(exclusion.glob.c_str(), text.c_str(), 0) == 0; };
  return matches(relative.string()) ||
         (exclusion.glob.find('/') == std::string::npos && matches(relative.filename().string()));
}

// The globs `relative` is excluded by, marked in `used`; false when none excludes it.
bool exclude(const std::vector<ConfigExclusion>& exclusions, const fs::path& relative, std::vector<bool>& used) {
  bool excluded = false;
  for (std::size_t i = 0; i < exclusions.size(); ++i) {
    if (!excluded_by(exclusions[i], relative)) continue;
    used[i] = true;
    excluded = true;
  }
  return excluded;
}

}  // namespace

Result<std::vector<ConfigFile>> config_files(const std::string& argument, const dialect::Chains& chains) {
  return TRY(select_config_files(argument, {}, &chains)).files;
}

Result<SelectedConfigs> select_config_files(const std::string& argument, const std::vector<ConfigExclusion>& exclusions,
                                            const dialect::Chains* chains) {
  std::error_code ec;
  SelectedConfigs selected;
  selected.unused = exclusions;  // a single config: no glob has a config to exclude
  if (!fs::is_directory(argument, ec)) {
    selected.files.push_back({argument, config::read_config_text(argument)});
    return selected;
  }
  selected.directory = true;
  std::vector<bool> used(exclusions.size(), false);
  for (auto it = fs::recursive_directory_iterator(argument, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".txt") continue;
    const fs::path relative = it->path().lexically_relative(argument);
    // Before it is read: an excluded file may be anything, it is never read as a config.
    if (exclude(exclusions, relative, used)) {
      selected.excluded.push_back(relative.string());
      continue;
    }
    // A config of a chain, or a file that cannot be one (binary, unreadable): an invalid
    // config of the suite with the reader's reason, not one left out without a word. An
    // empty file is nothing.
    auto text = config::read_config_text(it->path().string());
    std::error_code size_error;
    if (text ? of_a_chain(*text, chains) : it->file_size(size_error) > 0) {
      selected.files.push_back({it->path().string(), std::move(text)});
    }
  }
  if (ec) return fail(Error::at(argument, 0, "", "cannot list the directory: " + ec.message()));
  selected.unused.clear();
  for (std::size_t i = 0; i < exclusions.size(); ++i) {
    if (!used[i]) selected.unused.push_back(exclusions[i]);
  }
  std::sort(selected.excluded.begin(), selected.excluded.end());
  if (selected.files.empty() && !selected.excluded.empty()) {
    return fail(Error::at(
        argument, 0, "",
        fmt::format("every config of this directory is excluded ({})", plural(selected.excluded.size(), "file"))));
  }
  if (selected.files.empty()) {
    return fail(Error::at(argument, 0, "",
                          chains ? "no TIPC config (*.txt) of a known chain in this directory"
                                 : "no chains.yaml: tipc-run cannot tell a TIPC config from another file"));
  }
  std::sort(selected.files.begin(), selected.files.end(),
            [](const ConfigFile& a, const ConfigFile& b) { return a.path < b.path; });
  return selected;
}

std::vector<ConfigExclusion> config_exclusions(const std::vector<std::string>& excludes,
                                               const config::ProjectSettings& settings) {
  std::vector<ConfigExclusion> exclusions;
  for (const std::string& glob : excludes) exclusions.push_back({glob, "--exclude"});
  for (const config::ExcludeSetting& setting : settings.exclude) {
    exclusions.push_back({setting.glob, fmt::format("{}:{}", settings.path, setting.line)});
  }
  return exclusions;
}

}  // namespace tipc::plan
