#include "plan/path_relation.h"

#include "core/text.h"

namespace tipc::plan {

std::string normalised_path(const std::string& cwd, const std::string& path) {
  const bool absolute = path.starts_with('/') || (cwd.starts_with('/') && !path.starts_with('/'));
  const std::string joined = path.starts_with('/') ? path : cwd + "/" + path;
  std::vector<std::string> parts;
  for (const std::string& part : split(joined, '/')) {
    if (part.empty() || part == ".") continue;
    if (part != "..") {
      parts.push_back(part);
    } else if (!parts.empty() && parts.back() != "..") {
      parts.pop_back();
    } else if (!absolute) {
      parts.push_back(part);  // climbs out of the repository; "/.." is "/"
    }
  }
  const std::string out = (absolute ? "/" : "") + join(parts, "/");
  return out.empty() ? "." : out;
}

bool path_within(const std::string& path, const std::string& directory) {
  return path == directory || directory == "." ||
         (path.size() > directory.size() && path.starts_with(directory) && path[directory.size()] == '/');
}

bool paths_related(const std::string& a, const std::string& b) { return path_within(a, b) || path_within(b, a); }

bool any_pair(const std::vector<std::string>& xs, const std::vector<std::string>& ys,
              bool (*test)(const std::string&, const std::string&)) {
  for (const auto& x : xs) {
    for (const auto& y : ys) {
      if (test(x, y)) return true;
    }
  }
  return false;
}

}  // namespace tipc::plan
