#include "data/download_cache.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/command.h"
#include "core/sha256.h"

namespace tipc::data {
namespace {

namespace fs = std::filesystem;

std::string url_key(const std::string& url) {
  Sha256 hash;
  hash.update(url.data(), url.size());
  return hash.hex_digest();
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

Error cache_error(const std::string& path, const std::string& what) {
  Error error = Error::plain(fmt::format("download cache {}: {}", path, what));
  error.exit_code = kExitFailed;
  return error;
}

Result<void> make_directory(const std::string& directory) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) return fail(cache_error(directory, "cannot create: " + ec.message()));
  return {};
}

// A name in the cache directory no other download uses (the rename into place stays on one
// file system): a file with `mkstemp`, a directory with `mkdtemp`.
Result<std::string> temporary_in(const std::string& directory, bool as_directory) {
  std::string pattern = directory + "/.partial-XXXXXX";
  bool made = false;
  if (as_directory) {
    made = ::mkdtemp(pattern.data()) != nullptr;
  } else if (const int fd = ::mkstemp(pattern.data()); fd >= 0) {
    ::close(fd);
    made = true;
  }
  if (!made) return fail(cache_error(directory, "cannot create a temporary file: " + errno_text(errno)));
  return pattern;
}

// The last line a failing tool printed: wget's and curl's reason comes last.
std::string last_line(const CommandOutcome& outcome) {
  if (!outcome.launch_error.empty()) return outcome.launch_error;
  std::string text = outcome.output;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  std::string line = text.substr(text.rfind('\n') + 1);
  if (outcome.timed_out) return line.empty() ? "timed out" : "timed out: " + line;
  return line.empty() ? fmt::format("exit code {}", outcome.exit_code.value_or(-1)) : line;
}

std::vector<std::string> download_argv(const std::string& tool, const std::string& url, const std::string& file,
                                       const std::vector<std::string>& options) {
  const bool curl = fs::path(tool).filename() == "curl";
  // curl saves an HTTP error page as the file unless --fail; wget fails on one by itself.
  std::vector<std::string> argv{tool, curl ? "-fsSL" : "--no-verbose"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {curl ? "-o" : "-O", file, url});
  return argv;
}

Result<void> run_fetch(const std::vector<std::string>& argv, const std::string& url, double timeout_seconds,
                       std::atomic<int>* running_group) {
  CommandSpec spec;
  spec.argv = argv;
  spec.running_group = running_group;
  spec.timeout_seconds = timeout_seconds;
  spec.output_limit = 64 * 1024;
  const CommandOutcome outcome = run_command(spec);
  if (outcome.ok()) return {};
  Error error = Error::plain(fmt::format("cannot download {}: {}", url, last_line(outcome)));
  error.exit_code = kExitFailed;
  return fail(std::move(error));
}

// What an interrupted download left (its temporary name), once no download can still be
// writing it: older than a day, which is longer than a fetch may take by default.
void remove_stale_partials(const std::string& directory) {
  const auto stale_before = fs::file_time_type::clock::now() - std::chrono::hours(24);
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->path().filename().string().starts_with(".partial-")) continue;
    if (it->last_write_time(entry_ec) < stale_before && !entry_ec) fs::remove_all(it->path(), entry_ec);
  }
}

// Whether two regular files hold the same bytes (false when either cannot be read).
bool same_bytes(const std::string& a, const std::string& b) {
  std::error_code ec_a, ec_b;
  if (!fs::is_regular_file(b, ec_b) || fs::file_size(a, ec_a) != fs::file_size(b, ec_b) || ec_a || ec_b) return false;
  std::ifstream in_a(a, std::ios::binary), in_b(b, std::ios::binary);
  std::vector<char> block_a(1 << 16), block_b(1 << 16);
  while (in_a && in_b) {
    in_a.read(block_a.data(), static_cast<std::streamsize>(block_a.size()));
    in_b.read(block_b.data(), static_cast<std::streamsize>(block_b.size()));
    const auto read = in_a.gcount();
    if (read != in_b.gcount() || !std::equal(block_a.begin(), block_a.begin() + read, block_b.begin())) return false;
  }
  return in_a.eof() && in_b.eof();
}

Result<void> move_into_place(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) return fail(cache_error(to, "cannot move the download into place: " + ec.message()));
  return {};
}

}  // namespace

std::string DownloadCache::entry_path(const std::string& url) const { return directory_ + "/" + url_key(url); }

std::string DownloadCache::mirror_path(const std::string& url) const { return entry_path(url) + ".git"; }

bool DownloadCache::is_cached(const std::string& url) const { return !directory_.empty() && exists(entry_path(url)); }

bool DownloadCache::has_mirror(const std::string& url) const { return !directory_.empty() && exists(mirror_path(url)); }

Result<std::string> DownloadCache::fetch(const std::string& url, const std::string& tool,
                                         const std::vector<std::string>& options, double timeout_seconds) const {
  TRY(make_directory(directory_));
  remove_stale_partials(directory_);
  const std::string partial = TRY(temporary_in(directory_, false));
  const auto argv = download_argv(tool, url, partial, options);
  if (auto fetched = run_fetch(argv, url, timeout_seconds, running_group_); !fetched) {
    std::error_code ignored;
    fs::remove(partial, ignored);
    return fail(fetched.error());
  }
  const std::string entry = entry_path(url);
  std::error_code ec;
  // mkstemp made it private; the copies a runner gets are ordinary files, as wget makes them.
  fs::permissions(partial,
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read, ec);
  const auto size = fs::file_size(partial, ec);
  TRY(move_into_place(partial, entry));
  const std::string meta = fmt::format("url={}\nsize={}\nfetched={:%Y-%m-%dT%H:%M:%SZ}\n", url, ec ? 0 : size,
                                       fmt::gmtime(std::time(nullptr)));
  TRY(write_file_atomically(entry + ".meta", meta));
  return entry;
}

Result<std::string> DownloadCache::fetch_mirror(const std::string& url, double timeout_seconds) const {
  TRY(make_directory(directory_));
  remove_stale_partials(directory_);
  const std::string partial = TRY(temporary_in(directory_, true));
  const std::vector<std::string> argv{"git", "clone", "--mirror", "--quiet", url, partial};
  if (auto fetched = run_fetch(argv, url, timeout_seconds, running_group_); !fetched) {
    std::error_code ignored;
    fs::remove_all(partial, ignored);
    return fail(fetched.error());
  }
  TRY(move_into_place(partial, mirror_path(url)));
  return mirror_path(url);
}

Result<bool> DownloadCache::copy_out(const std::string& url, const std::string& destination) const {
  if (same_bytes(entry_path(url), destination)) return false;
  const fs::path target(destination);
  const fs::path partial = target.string() + ".tipc-partial";
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (!ec) fs::copy_file(entry_path(url), partial, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(partial, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(partial, ignored);
    return fail(cache_error(directory_, fmt::format("cannot copy {} to {}: {}", url, destination, ec.message())));
  }
  return true;
}

}  // namespace tipc::data
