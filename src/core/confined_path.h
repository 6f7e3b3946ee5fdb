#pragma once
// Whether a path taken from a settings file or a config stays inside the directory it is
// relative to, judged on its text alone: not empty, not absolute and without a ".."
// component. "a/../b" is refused too: through a symlink "a", ".." climbs from wherever a
// points. "." and "./x" are inside. Header-only, so the fuzz targets' reader library
// needs no extra source.
#include <algorithm>
#include <cstddef>
#include <string_view>

namespace tipc {

inline bool is_confined_relative_path(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    if (path.substr(start, slash - start) == "..") return false;
    start = slash + 1;
  }
  return true;
}

}  // namespace tipc
