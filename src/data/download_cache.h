#pragma once
// Files and git repositories a runner downloads, kept across runs, keyed by URL, so a
// replayed `wget` or `git clone` fetches each URL once and `--offline` runs from what is kept.
//
// An entry is named by the SHA-256 of its URL: `<sha>` the file, `<sha>.meta` a few lines
// (url, size, fetched) for a person looking in, `<sha>.git` a `git clone --mirror` of a
// repository. Entries are made under a temporary name in the cache directory and renamed
// into place, so a failed or interrupted download leaves no entry behind.
#include <atomic>
#include <string>
#include <vector>

#include "core/error.h"

namespace tipc::data {

class DownloadCache {
 public:
  // `directory`: core/locations.h's download_cache_directory(); "" is a cache that holds
  // nothing and keeps nothing. `running_group`: see CommandSpec::running_group; the fetching
  // tool's group is kept there.
  explicit DownloadCache(std::string directory, std::atomic<int>* running_group = nullptr)
      : directory_(std::move(directory)), running_group_(running_group) {}

  const std::string& directory() const { return directory_; }
  std::string entry_path(const std::string& url) const;   // the file of a downloaded URL
  std::string mirror_path(const std::string& url) const;  // the mirror of a cloned URL

  bool is_cached(const std::string& url) const;
  bool has_mirror(const std::string& url) const;

  // Downloads `url` with `tool` ("wget" or "curl", or a path to one; run without a shell in
  // a process group of its own, killed after `timeout_seconds`) plus `options` (such as
  // --no-check-certificate) and keeps it. Returns the entry's path. A failure (exit code 1)
  // names the URL and the tool's last line.
  Result<std::string> fetch(const std::string& url, const std::string& tool,
                            const std::vector<std::string>& options = {}, double timeout_seconds = 3600) const;

  // `git clone --mirror` of `url` into the cache; returns the mirror's path.
  Result<std::string> fetch_mirror(const std::string& url, double timeout_seconds = 3600) const;

  // Copies the cached file to `destination` (its directories made), replacing it whole;
  // false when the destination held the same bytes already and was left alone, so its time
  // stays and what was built from it stays up to date.
  Result<bool> copy_out(const std::string& url, const std::string& destination) const;

 private:
  std::string directory_;
  std::atomic<int>* running_group_;
};

}  // namespace tipc::data
