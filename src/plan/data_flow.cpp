#include "plan/data_flow.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/text.h"
#include "plan/path_relation.h"

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

bool path_like(const std::string& value) {
  return value.find('/') != std::string::npos && value.find("://") == std::string::npos && !value.starts_with("-");
}

bool names_output(std::string_view written_key) {
  const std::string key = lower(written_key);
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

// What a stage wrote that another may read: its outputs and its log.
std::vector<std::string> written(const PathUse& use) {
  std::vector<std::string> paths = use.writes;
  if (!use.log.empty()) paths.push_back(use.log);
  return paths;
}

// `later` reads a path `earlier` wrote, unless a stage between them wrote that path again
// (`rewritten`): the second of two trains saving to one directory is what an eval reads.
bool reads_from(const PathUse& later, const PathUse& earlier, const std::set<std::string>& rewritten) {
  for (const auto& path : written(earlier)) {
    if (rewritten.contains(path)) continue;
    for (const auto& read : later.reads) {
      if (paths_related(read, path)) return true;
    }
  }
  return false;
}

// `later` overwrites what `earlier` wrote or read: the runner's order, not a data flow.
bool overwrites(const PathUse& later, const PathUse& earlier) {
  return any_pair(later.writes, earlier.writes, same) || any_pair(later.writes, earlier.reads, same);
}

// Which stages each stage already waits for, through its dependencies alone and through any
// edge: an edge implied by a later one is left out.
struct Reach {
  explicit Reach(std::size_t n) : deps(n, std::vector<bool>(n, false)), any(n, std::vector<bool>(n, false)) {}
  void add(std::size_t from, std::size_t to, bool dependency) {
    for (std::size_t k = 0; k < to; ++k) {
      if (dependency) deps[from][k] = deps[from][k] || deps[to][k];
      any[from][k] = any[from][k] || any[to][k];
    }
    if (dependency) deps[from][to] = true;
    any[from][to] = true;
  }
  std::vector<std::vector<bool>> deps, any;
};

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

FlowEdges data_flow_edges(const std::vector<PathUse>& uses) {
  const std::size_t n = uses.size();
  FlowEdges edges{std::vector<std::vector<std::size_t>>(n), std::vector<std::vector<std::size_t>>(n)};
  Reach reach(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::set<std::string> rewritten;  // what the stages it reads from, latest first, wrote
    for (std::size_t j = i; j-- > 0;) {
      if (uses[i].barrier || uses[j].barrier || reads_from(uses[i], uses[j], rewritten)) {
        for (auto& path : written(uses[j])) rewritten.insert(std::move(path));
        if (reach.deps[i][j]) continue;
        edges.deps[i].push_back(j);
        reach.add(i, j, true);
      } else if (!reach.any[i][j] && overwrites(uses[i], uses[j])) {
        edges.after[i].push_back(j);
        reach.add(i, j, false);
      }
    }
    std::reverse(edges.deps[i].begin(), edges.deps[i].end());
    std::reverse(edges.after[i].begin(), edges.after[i].end());
  }
  return edges;
}

}  // namespace tipc::plan
