#include "report/config_labels.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>

namespace tipc::report {
namespace {

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& part : std::filesystem::path(path).lexically_normal()) {
    if (!part.empty() && part != ".") parts.push_back(part.string());
  }
  return parts;
}

// The last `n` components (all of them when there are fewer), joined by /.
std::string suffix(const std::vector<std::string>& parts, std::size_t n) {
  std::string text;
  for (std::size_t i = parts.size() > n ? parts.size() - n : 0; i < parts.size(); ++i) {
    text += (text.empty() || text == "/" ? "" : "/") + parts[i];
  }
  return text;
}

// The shortest unique path suffixes of `configs` (config_labels without modes).
std::vector<std::string> path_labels(const std::vector<std::string>& configs) {
  std::vector<std::vector<std::string>> parts;
  std::size_t deepest = 0;
  for (const std::string& config : configs) {
    parts.push_back(components(config));
    deepest = std::max(deepest, parts.back().size());
  }
  std::vector<std::string> labels(configs);  // the same path twice: nothing shorter tells them apart
  std::vector<bool> named(configs.size(), false);
  for (std::size_t n = 1; n <= deepest; ++n) {
    std::map<std::string, int> uses;
    for (const auto& p : parts) ++uses[suffix(p, n)];
    for (std::size_t i = 0; i < configs.size(); ++i) {
      if (named[i] || uses[suffix(parts[i], n)] != 1) continue;
      labels[i] = suffix(parts[i], n);
      named[i] = true;
    }
  }
  return labels;
}

}  // namespace

std::vector<std::string> config_labels(const std::vector<ConfigRun>& runs) {
  std::set<std::string> distinct_configs, modes;
  for (const ConfigRun& run : runs) {
    distinct_configs.insert(run.config);
    modes.insert(run.mode);
  }
  // The same config under several modes is told apart by its mode only.
  std::vector<std::string> labels = path_labels({distinct_configs.begin(), distinct_configs.end()});
  std::map<std::string, std::string> label_of;
  for (std::size_t i = 0; i < labels.size(); ++i) label_of[*std::next(distinct_configs.begin(), i)] = labels[i];
  std::vector<std::string> out;
  for (const ConfigRun& run : runs) out.push_back(label_of[run.config] + (modes.size() > 1 ? " " + run.mode : ""));
  return out;
}

}  // namespace tipc::report
