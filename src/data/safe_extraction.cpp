#include "data/safe_extraction.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <memory>
#include <span>
#include <system_error>
#include <utility>

#include "core/text.h"
#include "core/unique_fd.h"
#include "core/utf8_names.h"

namespace tipc::data {
namespace {

namespace fs = std::filesystem;
using detail::present;
using detail::split_path;
using Reader = std::unique_ptr<archive, int (*)(archive*)>;

// Symlinks followed while resolving one path before it counts as a loop (the kernel's limit).
constexpr int kMaxSymlinkHops = 40;
constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

bool has_dot_dot(const PathParts& parts) { return std::ranges::find(parts, "..") != parts.end(); }

bool starts_with(const PathParts& parts, const PathParts& prefix) {
  return parts.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), parts.begin());
}

std::span<const std::string> parent_of(const PathParts& parts) { return std::span(parts).first(parts.size() - 1); }

// Follows `target` from directory `dir` (relative to root) the way the kernel would,
// through the symlinks already unpacked, and tells whether it stays inside `within` (the
// declared path) all the way. Not only the end counts: outside `within` the scratch tree
// has none of what the destination holds (a sibling there may be a symlink), so a path
// through it could resolve elsewhere once the tree is in place. Lexical normalisation is
// not enough either: in "l/.." the ".." climbs from wherever l points.
bool resolves_within(const fs::path& root, PathParts dir, const std::string& target, const PathParts& within) {
  if (target.empty() || target.front() == '/') return false;
  const PathParts first = split_path(target);
  std::deque<std::string> pending(first.begin(), first.end());
  int hops = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == "..") {
      if (dir.size() <= within.size()) return false;
      dir.pop_back();
      continue;
    }
    // Below `within` only on the way into it (from a link named like the declared path).
    if (dir.size() < within.size() && part != within[dir.size()]) return false;
    dir.push_back(std::move(part));
    const fs::path here = root / join(dir, "/");
    std::error_code ec;  // a missing component is not a link; the path may still be created
    if (!fs::is_symlink(fs::symlink_status(here, ec))) continue;
    const std::string next = fs::read_symlink(here, ec).string();
    if (ec || ++hops > kMaxSymlinkHops || next.empty() || next.front() == '/') return false;
    dir.pop_back();
    const PathParts next_parts = split_path(next);
    pending.insert(pending.begin(), next_parts.begin(), next_parts.end());
  }
  return starts_with(dir, within);
}

Error corrupt_archive(const std::string& archive_path, archive* reader) {
  const char* message = archive_error_string(reader);
  return Error::at(archive_path, 0, "",
                   std::string("truncated or corrupt archive: ") + (message ? message : "unknown error"));
}

// Only the formats a data step declares. archive_read_support_format_all would also
// enable mtree, whose entries may name files on this machine to take their contents from.
Result<Reader> open_reader(const std::string& archive_path, HashingSource& source) {
  Reader reader(archive_read_new(), &archive_read_free);
  if (!reader) return fail(Error::at(archive_path, 0, "", "cannot allocate an archive reader"));
  // A filter libarchive was built without only makes such archives unrecognised.
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_zip(reader.get());
  source.attach(reader.get());
  const int status = archive_read_open1(reader.get());
  if (status != ARCHIVE_OK && status != ARCHIVE_WARN) return fail(corrupt_archive(archive_path, reader.get()));
  return reader;
}

// Unpacks one archive below `root`, entry by entry, refusing anything that could land
// outside the declared path. Files are created with *at() calls relative to directory
// descriptors opened with O_NOFOLLOW, so nothing is ever written through a symlink.
class Extraction {
 public:
  Extraction(const std::string& archive_path, const PathParts& creates, const ExtractLimits& limits,
             const fs::path& root, int root_fd)
      : archive_path_(archive_path), creates_(creates), limits_(limits), root_(root), root_fd_(root_fd) {}

  Result<ExtractReport> run(archive* reader);

 private:
  Result<void> extract_entry(archive* reader, archive_entry* entry);
  Result<PathParts> checked_path() const;
  Result<void> write_file(archive* reader, archive_entry* entry, const PathParts& parts);
  Result<void> copy_data(archive* reader, archive_entry* entry, int fd);
  Result<void> check_size(std::uint64_t entry_bytes) const;
  Result<void> write_at(int fd, const void* data, std::size_t size, la_int64_t offset) const;
  Result<void> make_symlink(archive_entry* entry, const PathParts& parts);
  Result<void> make_hardlink(archive_entry* entry, const PathParts& parts);
  Result<int> open_directory(std::span<const std::string> parts, bool create);
  Result<UniqueFd> open_child_directory(int parent, std::span<const std::string> path, bool create) const;
  template <typename Create>
  Result<void> create_entry(int dir_fd, const std::string& name, const std::string& doing, Create create) const;
  Result<void> clear_slot(int dir_fd, const std::string& name) const;
  Result<void> check_symlinks_in_finished_tree();
  Error refuse(const std::string& why) const;
  std::string confinement() const { return creates_.empty() ? "the destination" : "'" + join(creates_, "/") + "'"; }
  Error system_error(const std::string& doing) const;

  const std::string& archive_path_;
  const PathParts& creates_;
  const ExtractLimits& limits_;
  const fs::path& root_;
  const int root_fd_;
  std::string entry_;  // path of the entry being unpacked, for messages
  ExtractReport report_;
  // The directories of the last path opened, kept open: chain_fds_[i] is the directory
  // chain_names_[0..i]. An archive lists a directory's entries together, so most entries
  // need no lookup at all. The descriptors stay right for the whole extraction because
  // an unpacked directory is never replaced clear_slot.
  PathParts chain_names_;
  std::vector<UniqueFd> chain_fds_;
};

Result<ExtractReport> Extraction::run(archive* reader) {
  for (;;) {
    archive_entry* entry = nullptr;
    const int status = archive_read_next_header(reader, &entry);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) return fail(corrupt_archive(archive_path_, reader));
    if (archive_entry_pathname(entry) == nullptr && status == ARCHIVE_WARN) {
      const char* why = archive_error_string(reader);
      return fail(Error::at(archive_path_, 0, "", std::string("an entry's name cannot be read: ") + (why ? why : "")));
    }
    TRY(extract_entry(reader, entry));
  }
  const std::string declared = join(creates_, "/");
  if (!present(root_ / declared)) {
    return fail(Error::at(archive_path_, 0, "", "the archive does not create '" + declared + "'"));
  }
  TRY(check_symlinks_in_finished_tree());
  return report_;
}

Result<void> Extraction::extract_entry(archive* reader, archive_entry* entry) {
  const char* name = archive_entry_pathname(entry);
  entry_ = name ? name : "";
  if (++report_.entries > limits_.max_entries) {
    return fail(refuse("the archive has more than " + std::to_string(limits_.max_entries) + " entries (max_entries)"));
  }
  const auto parts = TRY(checked_path());
  const auto type = archive_entry_filetype(entry);
  if (parts.empty() && type == AE_IFDIR) return {};  // "./"
  if (parts.empty()) return fail(refuse("an entry without a path"));
  // "./" and the parents of the declared path are directories that exist anyway.
  if (type == AE_IFDIR && parts.size() < creates_.size() && starts_with(creates_, parts)) return {};
  if (!starts_with(parts, creates_)) {
    return fail(refuse("outside '" + join(creates_, "/") + "', the only path this archive may create"));
  }
  if (archive_entry_hardlink(entry) != nullptr) return make_hardlink(entry, parts);
  switch (type) {
    case AE_IFDIR: {
      TRY(open_directory(parts, true));
      return {};
    }
    case AE_IFREG: return write_file(reader, entry, parts);
    case AE_IFLNK: return make_symlink(entry, parts);
    case AE_IFCHR:
    case AE_IFBLK: return fail(refuse("device files are refused"));
    case AE_IFIFO: return fail(refuse("FIFOs are refused"));
    case AE_IFSOCK: return fail(refuse("sockets are refused"));
    default: return fail(refuse("entries of unknown type are refused"));
  }
}

Result<PathParts> Extraction::checked_path() const {
  if (!entry_.empty() && entry_.front() == '/') return fail(refuse("absolute paths are refused"));
  PathParts parts = split_path(entry_);
  if (has_dot_dot(parts)) return fail(refuse("paths containing '..' are refused"));
  if (parts.size() > limits_.max_depth) {
    return fail(refuse("deeper than max_depth (" + std::to_string(limits_.max_depth) + " path components)"));
  }
  return parts;
}

Result<void> Extraction::write_file(archive* reader, archive_entry* entry, const PathParts& parts) {
  const auto dir = TRY(open_directory(parent_of(parts), true));
  int created = -1;
  const auto made = create_entry(dir, parts.back(), "cannot create the file", [&] {
    created = ::openat(dir, parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    return created >= 0;
  });
  if (!made) return made;
  const UniqueFd file(created);
  if (auto copied = copy_data(reader, entry, file.get()); !copied) return copied;
  // Execute bits stay; setuid, setgid, sticky and group/other write do not.
  if (::fchmod(file.get(), archive_entry_perm(entry) & 0755) != 0) return fail(system_error("cannot set the mode"));
  return {};
}

// An entry's size is what its header declares, or where its data reaches if that is
// further: a sparse file may end in a hole that no data block reaches (or be all hole),
// and a bomb may understate its size. Every size counts against the limits as soon as it
// is known, before the bytes are written.
Result<void> Extraction::copy_data(archive* reader, archive_entry* entry, int fd) {
  const la_int64_t declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
  std::uint64_t extent = static_cast<std::uint64_t>(std::max<la_int64_t>(declared, 0));
  TRY(check_size(extent));
  for (;;) {
    const void* block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    const int status = archive_read_data_block(reader, &block, &size, &offset);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) return fail(corrupt_archive(archive_path_, reader));
    extent = std::max(extent, static_cast<std::uint64_t>(offset) + size);
    TRY(check_size(extent));
    if (auto written = write_at(fd, block, size, offset); !written) return written;
  }
  // The hole at the end, which no block wrote.
  if (::ftruncate(fd, static_cast<off_t>(extent)) != 0) return fail(system_error("cannot set the size"));
  report_.bytes += extent;
  return {};
}

Result<void> Extraction::check_size(std::uint64_t entry_bytes) const {
  if (entry_bytes > limits_.max_entry_bytes) {
    return fail(refuse("larger than max_entry_bytes (" + std::to_string(limits_.max_entry_bytes) + " bytes)"));
  }
  if (report_.bytes + entry_bytes > limits_.max_total_bytes) {
    return fail(refuse("the archive unpacks to more than max_total_bytes (" + std::to_string(limits_.max_total_bytes) +
                       " bytes)"));
  }
  return {};
}

Result<void> Extraction::write_at(int fd, const void* data, std::size_t size, la_int64_t offset) const {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::pwrite(fd, bytes, size, offset);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return fail(system_error("cannot write"));
    bytes += written;
    size -= static_cast<std::size_t>(written);
    offset += written;
  }
  return {};
}

Result<void> Extraction::make_symlink(archive_entry* entry, const PathParts& parts) {
  const char* raw_target = archive_entry_symlink(entry);
  const std::string target = raw_target ? raw_target : "";
  if (target.empty()) return fail(refuse("symlink without a target"));
  if (target.front() == '/') return fail(refuse("symlink to the absolute path '" + target + "' is refused"));
  const auto parent = parent_of(parts);
  if (!resolves_within(root_, PathParts(parent.begin(), parent.end()), target, creates_)) {
    return fail(refuse("symlink to '" + target + "' points outside " + confinement()));
  }
  const auto dir = TRY(open_directory(parent, true));
  return create_entry(dir, parts.back(), "cannot create the symlink",
                      [&] { return ::symlinkat(target.c_str(), dir, parts.back().c_str()) == 0; });
}

// A hardlink may only point at a regular file unpacked earlier: one to an absolute path
// would expose a file of this machine, one to a symlink could resolve differently from
// its new directory.
Result<void> Extraction::make_hardlink(archive_entry* entry, const PathParts& parts) {
  const std::string target = archive_entry_hardlink(entry);
  if (!target.empty() && target.front() == '/') {
    return fail(refuse("hardlink to the absolute path '" + target + "' is refused"));
  }
  const PathParts target_parts = split_path(target);
  if (has_dot_dot(target_parts)) return fail(refuse("hardlink to '" + target + "' (containing '..') is refused"));
  if (target_parts.empty()) return fail(refuse("hardlink without a target"));
  const auto from_chain = open_directory(parent_of(target_parts), false);
  const UniqueFd from(from_chain ? ::dup(*from_chain) : -1);  // the next open_directory may close the chain's
  struct stat target_status {};
  if (!from.valid() || ::fstatat(from.get(), target_parts.back().c_str(), &target_status, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISREG(target_status.st_mode)) {
    return fail(refuse("hardlink target '" + target + "' is not a file unpacked before it"));
  }
  const auto dir = TRY(open_directory(parent_of(parts), true));
  return create_entry(dir, parts.back(), "cannot create the hardlink", [&] {
    return ::linkat(from.get(), target_parts.back().c_str(), dir, parts.back().c_str(), 0) == 0;
  });
}

// The directory `parts` below root, opened (and with `create`, made) one component at
// a time with O_NOFOLLOW, so that no entry is written through a symlink, even one
// pointing inside. The descriptor is the chain's: valid until the next call.
Result<int> Extraction::open_directory(std::span<const std::string> parts, bool create) {
  std::size_t kept = 0;
  while (kept < parts.size() && kept < chain_names_.size() && chain_names_[kept] == parts[kept]) ++kept;
  if (kept < parts.size()) {
    chain_names_.resize(kept);
    chain_fds_.erase(chain_fds_.begin() + static_cast<std::ptrdiff_t>(kept), chain_fds_.end());
  }
  for (std::size_t i = kept; i < parts.size(); ++i) {
    auto next = TRY(open_child_directory(i == 0 ? root_fd_ : chain_fds_.back().get(), parts.first(i + 1), create));
    chain_names_.push_back(parts[i]);
    chain_fds_.push_back(std::move(next));
  }
  return parts.empty() ? root_fd_ : chain_fds_[parts.size() - 1].get();
}

Result<UniqueFd> Extraction::open_child_directory(int parent, std::span<const std::string> path, bool create) const {
  const char* name = path.back().c_str();
  UniqueFd dir(::openat(parent, name, kDirectoryFlags));
  if (!dir.valid() && errno == ENOENT && create) {
    if (::mkdirat(parent, name, 0755) != 0) return fail(system_error("cannot create '" + join(path, "/") + "'"));
    dir = UniqueFd(::openat(parent, name, kDirectoryFlags));
    // mkdirat's mode is narrowed by the umask; unpacked directories are 0755 whatever it is.
    if (dir.valid() && ::fchmod(dir.get(), 0755) != 0) return fail(system_error("cannot set the mode"));
  }
  if (!dir.valid() && (errno == ELOOP || errno == ENOTDIR)) {
    return fail(refuse("'" + join(path, "/") + "' is a symlink or a file, not a directory"));
  }
  if (!dir.valid()) return fail(system_error("cannot open '" + join(path, "/") + "'"));
  return dir;
}

// Makes a file, symlink or hardlink with `create` (true when made, errno set when not).
// A later entry replaces an earlier one of the same name, as with tar; the name is looked
// at only when it is taken, so a fresh tree costs one call per entry.
template <typename Create>
Result<void> Extraction::create_entry(int dir_fd, const std::string& name, const std::string& doing,
                                      Create create) const {
  if (create()) return {};
  if (errno != EEXIST) return fail(system_error(doing));
  if (auto cleared = clear_slot(dir_fd, name); !cleared) return cleared;
  if (!create()) return fail(system_error(doing));
  return {};
}

// Removes an earlier entry of the name, unless it is a directory, which would have to be
// deleted recursively.
Result<void> Extraction::clear_slot(int dir_fd, const std::string& name) const {
  struct stat existing {};
  if (::fstatat(dir_fd, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return {};
    return fail(system_error("cannot inspect the existing entry"));
  }
  if (S_ISDIR(existing.st_mode)) return fail(refuse("a directory of that name was unpacked before it"));
  if (::unlinkat(dir_fd, name.c_str(), 0) != 0) return fail(system_error("cannot replace the existing entry"));
  return {};
}

// A symlink that stayed inside when it was unpacked can be redirected by a later one
// ("a" -> "b/..", then "b" -> "../.."), so every link is checked again at the end.
Result<void> Extraction::check_symlinks_in_finished_tree() {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_symlink(ec)) continue;
    const fs::path relative = it->path().lexically_relative(root_);
    entry_ = relative.generic_string();
    const std::string target = fs::read_symlink(it->path(), ec).string();
    if (ec || !resolves_within(root_, split_path(relative.parent_path().generic_string()), target, creates_)) {
      return fail(refuse("symlink to '" + target + "' points outside " + confinement() +
                         " once the whole archive is unpacked"));
    }
  }
  if (ec) return fail(Error::at(archive_path_, 0, "", "cannot walk the unpacked tree: " + ec.message()));
  return {};
}

Error Extraction::refuse(const std::string& why) const {
  return Error::at(archive_path_, 0, entry_, "entry '" + entry_ + "': " + why);
}

Error Extraction::system_error(const std::string& doing) const {
  const int code = errno;
  return refuse(doing + ": " + errno_text(code));
}

}  // namespace

namespace detail {

bool present(const fs::path& path) {
  std::error_code ec;  // set for a missing path too, so it is not reported
  return fs::exists(fs::symlink_status(path, ec));
}

PathParts split_path(const std::string& path) {
  PathParts parts = split(path, '/');
  std::erase_if(parts, [](const std::string& part) { return part.empty() || part == "."; });
  return parts;
}

}  // namespace detail

Result<ExtractReport> extract_into(HashingSource& source, const std::string& archive_path, const PathParts& creates,
                                   const ExtractLimits& limits, const fs::path& root) {
  if (::mkdir(root.c_str(), 0755) != 0)
    return fail(Error::at(root.string(), 0, "", "cannot create: " + errno_text(errno)));
  const UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd.valid()) return fail(Error::at(root.string(), 0, "", "cannot open: " + errno_text(errno)));
  const Utf8Names utf8_names;  // for as long as the reader lives: a zip's UTF-8 names are read as such
  const auto reader = TRY(open_reader(archive_path, source));
  Extraction extraction(archive_path, creates, limits, root, root_fd.get());
  return extraction.run(reader.get());
}

}  // namespace tipc::data
