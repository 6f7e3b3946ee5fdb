#pragma once
// Paths as text: how the planner normalises the paths a command names and decides whether
// two of them touch (one equals or lies inside the other, by whole components). Pure: no
// I/O, symlinks are not resolved (the run-time checks do that for what exists).
#include <string>
#include <vector>

namespace tipc::plan {

// `path` (absolute, or relative to `cwd`) without ".", "..", repeated or trailing slashes:
// "deploy/cpp" + "./build/" -> "deploy/cpp/build"; a relative path that climbs out keeps its
// leading ".." ("deploy" + "../../x" -> "../x"); "." for the directory itself.
std::string normalised_path(const std::string& cwd, const std::string& path);

// `path` equals `directory` or lies inside it; "." (the repository root) contains every path.
bool path_within(const std::string& path, const std::string& directory);

// One of the two lies within the other.
bool paths_related(const std::string& a, const std::string& b);

// Whether `test` holds for some path of `xs` paired with some path of `ys`.
bool any_pair(const std::vector<std::string>& xs, const std::vector<std::string>& ys,
              bool (*test)(const std::string&, const std::string&));

}  // namespace tipc::plan
