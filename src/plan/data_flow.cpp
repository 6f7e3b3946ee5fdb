#include "plan/data_flow.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "plan/path_relation.h"

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

bool path_like(const std::string& value) {
  return value.find('/') != std::string::npos && value.find("://") == std::string::npos && !value.starts_with("-");
}

bool names_output(std::string key) {
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  return key.find("save") != std::string::npos || key.find("output") != std::string::npos || key == "-o";
}

std::string resolve(const std::string& value, const std::string& cwd, const std::string& repo_root) {
  std::string path = value;
  if (repo_root != "." && (path == repo_root || path.starts_with(repo_root + "/"))) {
    path = path.size() == repo_root.size() ? "." : path.substr(repo_root.size() + 1);
  } else if (!path.starts_with("/")) {
    path = (fs::path(cwd) / path).string();
  }
  std::string normal = fs::path(path).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

bool same(const std::string& a, const std::string& b) { return a == b; }

bool must_follow(const PathUse& later, const PathUse& earlier) {
  if (later.barrier || earlier.barrier) return true;
  return any_pair(later.reads, earlier.writes, paths_related) || any_pair(later.writes, earlier.writes, same) ||
         any_pair(later.writes, earlier.reads, same);
}

}  // namespace

PathUse path_use(const std::vector<std::string>& args, const std::string& cwd, const std::string& repo_root) {
  PathUse use;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string key, value;
    if (const std::size_t eq = arg.find('='); eq != std::string::npos && eq > 0) {
      key = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else if (i > 0 && args[i - 1].starts_with("-") && args[i - 1].find('=') == std::string::npos) {
      key = args[i - 1];
      value = arg;
    } else {
      value = arg;
    }
    if (!path_like(value)) continue;
    (names_output(key) ? use.writes : use.reads).push_back(resolve(value, cwd, repo_root));
  }
  use.barrier = use.reads.empty() && use.writes.empty();
  return use;
}

std::vector<std::vector<std::size_t>> data_flow_dependencies(const std::vector<PathUse>& uses) {
  const std::size_t n = uses.size();
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));  // reaches[i][j]: i waits for j
  std::vector<std::vector<std::size_t>> deps(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Latest first: an edge already implied by a later dependency is left out.
    for (std::size_t j = i; j-- > 0;) {
      if (reaches[i][j] || !must_follow(uses[i], uses[j])) continue;
      deps[i].push_back(j);
      reaches[i][j] = true;
      for (std::size_t k = 0; k < j; ++k) reaches[i][k] = reaches[i][k] || reaches[j][k];
    }
    std::reverse(deps[i].begin(), deps[i].end());
  }
  return deps;
}

}  // namespace tipc::plan
