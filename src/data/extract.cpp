#include "data/extract.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/confined_path.h"
#include "core/text.h"
#include "core/unique_fd.h"
#include "data/hashing_source.h"
#include "data/safe_extraction.h"

namespace tipc::data {
namespace {

namespace fs = std::filesystem;
using detail::present;
using detail::split_path;

// A private directory inside the destination, so that renames out of it stay on one
// file system; removed with everything in it when it goes out of scope, which is what
// makes every failure leave nothing behind.
class ScratchDir {
 public:
  static Result<ScratchDir> create_in(const fs::path& parent) {
    std::string pattern = (parent / ".tipc-extract-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return fail(Error::at(parent.string(), 0, "", "cannot create a scratch directory: " + errno_text(errno)));
    }
    return ScratchDir(pattern);
  }
  ScratchDir(ScratchDir&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  ScratchDir& operator=(ScratchDir&&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit ScratchDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

Result<PathParts> declared_path(const DataStep& step) {
  const PathParts parts = split_path(step.creates);
  if (!is_confined_relative_path(step.creates) || parts.empty()) {
    return fail(
        Error::at(step.archive, 0, "creates",
                  "'creates' must be a relative path inside the destination without '..', got '" + step.creates + "'"));
  }
  return parts;
}

fs::path stamp_path(const fs::path& destination, const PathParts& creates) {
  std::string name = join(creates, "/");
  std::ranges::replace(name, '/', '_');
  return destination / ("." + name + ".tipc-stamp");
}

// The archive's size, inode and times, as a stamp records them: while they stay the same,
// so do its bytes.
struct FileState {
  std::string text;
  double changed = 0;  // ctime, seconds since the epoch
};

Result<FileState> file_state(int fd, const std::string& path) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return fail(Error::at(path, 0, "", "cannot stat: " + errno_text(errno)));
  return FileState{
      fmt::format("size={} mtime={}.{:09} ctime={}.{:09} inode={} device={}", info.st_size, info.st_mtim.tv_sec,
                  info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec, info.st_ino, info.st_dev),
      static_cast<double>(info.st_ctim.tv_sec) + static_cast<double>(info.st_ctim.tv_nsec) * 1e-9};
}

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// A changed file keeps its ctime when the change falls within the timestamp tick of the
// change before it, so a state is trusted only when the archive had been left alone for
// a while before it was read, and was not changed while it was read; otherwise the stamp
// holds the digest alone and the next run hashes the archive again.
constexpr double kSettledSeconds = 1.0;

std::string settled_state(const FileState& before, double read_from, const FileState& after) {
  return before.text == after.text && before.changed < read_from - kSettledSeconds ? before.text : "";
}

struct Stamp {
  std::string digest;
  std::string state;                 // "" when not recorded
  std::vector<std::string> entries;  // an unpacked archive's top-level names (unpack_archive)
};

// Line 1 the digest, line 2 the file state (stamps of older versions have line 1 only),
// then the top-level entries, one a line.
std::optional<Stamp> read_stamp(const fs::path& path) {
  std::ifstream in(path);
  Stamp stamp;
  if (!std::getline(in, stamp.digest) || stamp.digest.empty()) return std::nullopt;
  std::getline(in, stamp.state);
  for (std::string entry; std::getline(in, entry);) stamp.entries.push_back(entry);
  return stamp;
}

// Written under a temporary name and renamed, so the stamp is never seen half-written.
Result<void> write_stamp(const fs::path& stamp, const Stamp& content) {
  fs::path temporary = stamp;
  temporary += ".tmp";
  std::ofstream out(temporary, std::ios::trunc);
  out << content.digest << '\n';
  if (!content.state.empty() || !content.entries.empty()) out << content.state << '\n';
  for (const auto& entry : content.entries) out << entry << '\n';
  out.close();
  std::error_code ec;
  if (!out) return fail(Error::at(temporary.string(), 0, "", "cannot write the stamp: " + errno_text(errno)));
  fs::rename(temporary, stamp, ec);
  if (ec) return fail(Error::at(stamp.string(), 0, "", "cannot write the stamp: " + ec.message()));
  return {};
}

// The previous tree and its stamp are moved aside (into the scratch directory) before the
// new tree moves in: a failed rename can then put both back, and a crash in between
// leaves no stamp vouching for the wrong tree.
Result<void> install_tree(const fs::path& staged, const fs::path& target, const fs::path& stamp,
                          const fs::path& aside) {
  const fs::path old_tree = aside / "previous-tree";
  const fs::path old_stamp = aside / "previous-stamp";
  const bool had_tree = present(target);
  const bool had_stamp = present(stamp);
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (!ec && had_stamp) fs::rename(stamp, old_stamp, ec);
  if (!ec && had_tree) fs::rename(target, old_tree, ec);
  if (!ec) fs::rename(staged, target, ec);
  if (!ec) return {};
  std::error_code ignored;
  if (had_tree && !present(target)) fs::rename(old_tree, target, ignored);
  if (had_stamp && !present(stamp)) fs::rename(old_stamp, stamp, ignored);
  return fail(Error::at(target.string(), 0, "", "cannot move the unpacked tree into place: " + ec.message()));
}

ExtractReport up_to_date(const std::string& digest, bool hashed) {
  ExtractReport report;
  report.skipped = true;
  report.hashed = hashed;
  report.archive_sha256 = digest;
  return report;
}

// The stamp's verdict on an archive whose tree is in place: up to date, by its recorded
// file state or by its digest (then the stamp learns the current state, when settled),
// or nullopt when the archive changed.
Result<std::optional<ExtractReport>> check_stamp(const fs::path& path, const Stamp& stamp, HashingSource& source,
                                                 const std::string& archive_path, const FileState& state,
                                                 double read_from) {
  if (!stamp.state.empty() && stamp.state == state.text) return std::optional(up_to_date(stamp.digest, false));
  const auto digest = TRY(source.digest(archive_path));
  if (digest != stamp.digest) return std::optional<ExtractReport>();
  const auto after = TRY(file_state(source.fd(), archive_path));
  if (const std::string settled = settled_state(state, read_from, after); !settled.empty() && settled != stamp.state) {
    TRY(write_stamp(path, {digest, settled, stamp.entries}));
  }
  return std::optional(up_to_date(digest, true));
}

// How one archive is unpacked: the stamp that vouches for it, whether the tree it
// vouches for is in place, and how the scratch tree moves into the destination.
struct Unpacking {
  fs::path destination;
  PathParts creates;  // empty: whatever the archive holds, confined to the destination
  fs::path stamp;
  std::function<bool(const Stamp&)> in_place;
  std::function<Result<void>(const fs::path& root, const fs::path& aside, Stamp& stamp)> install;
};

Result<ExtractReport> unpack_once(const std::string& archive, const Unpacking& how, const ExtractLimits& limits) {
  UniqueFd archive_file(::open(archive.c_str(), O_RDONLY | O_CLOEXEC));
  if (!archive_file.valid()) return fail(Error::at(archive, 0, "", "cannot open: " + errno_text(errno)));
  const double read_from = unix_now();
  const auto before = TRY(file_state(archive_file.get(), archive));
  HashingSource source(std::move(archive_file));
  if (const auto recorded = read_stamp(how.stamp); recorded && how.in_place(*recorded)) {
    auto verdict = TRY(check_stamp(how.stamp, *recorded, source, archive, before, read_from));
    if (verdict) return std::move(*verdict);
  }
  std::error_code ec;
  fs::create_directories(how.destination, ec);
  if (ec) return fail(Error::at(how.destination.string(), 0, "", "cannot create the destination: " + ec.message()));
  const auto scratch = TRY(ScratchDir::create_in(how.destination));
  const fs::path root = scratch.path() / "tree";
  auto report = TRY(extract_into(source, archive, how.creates, limits, root));
  const auto digest = TRY(source.digest(archive));
  const auto after = TRY(file_state(source.fd(), archive));
  Stamp stamp{digest, settled_state(before, read_from, after), {}};
  TRY(how.install(root, scratch.path(), stamp));
  TRY(write_stamp(how.stamp, stamp));
  report.archive_sha256 = digest;
  report.hashed = true;
  return report;
}

// The names at the top of the unpacked tree, which the stamp lists one a line.
Result<std::vector<std::string>> top_level_names(const fs::path& root, const std::string& archive) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.find('\n') != std::string::npos) {
      return fail(Error::at(archive, 0, name, "entry '" + name + "': a name with a line break is refused"));
    }
    names.push_back(std::move(name));
  }
  if (ec) return fail(Error::at(archive, 0, "", "cannot list the unpacked tree: " + ec.message()));
  std::ranges::sort(names);
  return names;
}

// Moves what `from` holds into `to` as tar unpacks over an existing tree: a directory into
// a directory of its name (never through a symlink), anything else in place of what has its
// name; a directory is never replaced by a file.
Result<void> merge_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path target = to / it->path().filename();
    const auto existing = fs::symlink_status(target, ec);
    ec.clear();
    const bool both_directories = fs::is_directory(existing) && it->is_directory() && !it->is_symlink();
    if (both_directories) {
      TRY(merge_into(it->path(), target));
      continue;
    }
    if (fs::is_directory(existing)) {
      return fail(Error::at(target.string(), 0, "", "the archive holds a file where this directory is"));
    }
    if (fs::exists(existing) && it->is_directory()) fs::remove(target, ec);
    if (!ec) fs::rename(it->path(), target, ec);
    if (ec)
      return fail(Error::at(target.string(), 0, "", "cannot move the unpacked entry into place: " + ec.message()));
  }
  if (ec) return fail(Error::at(from.string(), 0, "", "cannot list the unpacked tree: " + ec.message()));
  return {};
}

}  // namespace

Result<ExtractReport> prepare_data(const DataStep& step, const ExtractLimits& limits) {
  const auto creates = TRY(declared_path(step));
  const fs::path destination = step.destination;
  const fs::path target = destination / join(creates, "/");
  const fs::path stamp = stamp_path(destination, creates);
  return unpack_once(step.archive,
                     {destination, creates, stamp, [&](const Stamp&) { return present(target); },
                      [&](const fs::path& root, const fs::path& aside, Stamp&) {
                        return install_tree(root / join(creates, "/"), target, stamp, aside);
                      }},
                     limits);
}

Result<ExtractReport> unpack_archive(const UnpackStep& step, const ExtractLimits& limits) {
  const fs::path destination = step.destination;
  const fs::path stamp = unpack_stamp_path(step);
  const auto entries_present = [&](const Stamp& recorded) {
    return std::ranges::all_of(recorded.entries, [&](const std::string& name) { return present(destination / name); });
  };
  // The old stamp goes before the tree changes: a crash while merging leaves none.
  const auto merge = [&](const fs::path& root, const fs::path&, Stamp& new_stamp) -> Result<void> {
    new_stamp.entries = TRY(top_level_names(root, step.archive));
    std::error_code ec;
    fs::remove(stamp, ec);
    if (ec) return fail(Error::at(stamp.string(), 0, "", "cannot remove the old stamp: " + ec.message()));
    return merge_into(root, destination);
  };
  auto report = TRY(unpack_once(step.archive, {destination, {}, stamp, entries_present, merge}, limits));
  report.stamp = stamp.string();
  return report;
}

std::string unpack_stamp_path(const UnpackStep& step) {
  return (fs::path(step.destination) / ("." + fs::path(step.archive).filename().string() + ".tipc-stamp")).string();
}

}  // namespace tipc::data
