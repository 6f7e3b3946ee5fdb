#include "setup/offline_downloads.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "plan/setup_action.h"

namespace tipc::setup {
namespace fs = std::filesystem;
namespace {

// Why the action cannot run offline, or nullopt: a download the tool would make (no
// existing file kept by -nc) of a URL the cache lacks; a clone into a directory that is not
// a checkout yet, of a URL the cache has no mirror of.
std::optional<std::string> needs_the_network(const plan::SetupAction& action, const fs::path& root,
                                             const data::DownloadCache& cache) {
  std::error_code ec;
  if (action.kind == plan::SetupKind::kDownload && !cache.is_cached(action.url) &&
      !(action.no_clobber && fs::exists(root / action.output, ec))) {
    return fmt::format("--offline: the download of {} is not in the download cache {}", action.url, cache.directory());
  }
  if (action.kind == plan::SetupKind::kClone && !cache.has_mirror(action.url) &&
      !fs::exists(root / action.output / ".git", ec)) {
    return fmt::format("--offline: the clone of {} has no mirror in the download cache {}", action.url,
                       cache.directory());
  }
  return std::nullopt;
}

}  // namespace

void refuse_uncached_downloads(plan::Plan& plan, const std::string& repo_root, const data::DownloadCache& cache) {
  for (auto& stage : plan.stages) {
    if (stage.kind != plan::StageKind::kSetup || stage.unsupported) continue;
    const auto words = std::find(stage.argv.begin(), stage.argv.end(), "--");
    for (auto word = words == stage.argv.end() ? words : words + 1; word != stage.argv.end(); ++word) {
      const auto action = plan::parse_setup_action_word(*word);
      if (!action) continue;  // the planner refused what it cannot read
      if (auto why = needs_the_network(*action, repo_root, cache)) {
        stage.unsupported = std::move(why);
        break;
      }
    }
  }
}

}  // namespace tipc::setup
