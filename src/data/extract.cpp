#include "data/extract.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/confined_path.h"
#include "core/text.h"
#include "core/unique_fd.h"
#include "core/utf8_names.h"
#include "data/hashing_source.h"

namespace tipc::data {
namespace {

namespace fs = std::filesystem;
using Parts = std::vector<std::string>;
using Reader = std::unique_ptr<archive, int (*)(archive*)>;

// Symlinks followed while resolving one path before it counts as a loop (the kernel's limit).
constexpr int kMaxSymlinkHops = 40;
constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

bool present(const fs::path& path) {
  std::error_code ec;  // set for a missing path too, so it is not reported
  return fs::exists(fs::symlink_status(path, ec));
}

// Components of a slash-separated path, without empty and "." ones; ".." is kept so
// that callers can refuse it.
Parts split_path(const std::string& path) {
  Parts parts = split(path, '/');
  std::erase_if(parts, [](const std::string& part) { return part.empty() || part == "."; });
  return parts;
}

bool has_dot_dot(const Parts& parts) { return std::ranges::find(parts, "..") != parts.end(); }

bool starts_with(const Parts& parts, const Parts& prefix) {
  return parts.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), parts.begin());
}

std::span<const std::string> parent_of(const Parts& parts) { return std::span(parts).first(parts.size() - 1); }

// Follows `target` from directory `dir` (relative to root) the way the kernel would,
// through the symlinks already unpacked, and tells whether it stays inside `within` (the
// declared path) all the way. Not only the end counts: outside `within` the scratch tree
// has none of what the destination holds (a sibling there may be a symlink), so a path
// through it could resolve elsewhere once the tree is in place. Lexical normalisation is
// not enough either: in "l/.." the ".." climbs from wherever l points.
bool resolves_within(const fs::path& root, Parts dir, const std::string& target, const Parts& within) {
  if (target.empty() || target.front() == '/') return false;
  const Parts first = split_path(target);
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
    const Parts next_parts = split_path(next);
    pending.insert(pending.begin(), next_parts.begin(), next_parts.end());
  }
  return starts_with(dir, within);
}

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
  Extraction(const std::string& archive_path, const Parts& creates, const ExtractLimits& limits,
             const fs::path& root, int root_fd)
      : archive_path_(archive_path), creates_(creates), limits_(limits), root_(root), root_fd_(root_fd) {}

  Result<ExtractReport> run(archive* reader);

 private:
  Result<void> extract_entry(archive* reader, archive_entry* entry);
  Result<Parts> checked_path() const;
  Result<void> write_file(archive* reader, archive_entry* entry, const Parts& parts);
  Result<void> copy_data(archive* reader, archive_entry* entry, int fd);
  Result<void> check_size(std::uint64_t entry_bytes) const;
  Result<void> write_at(int fd, const void* data, std::size_t size, la_int64_t offset) const;
  Result<void> make_symlink(archive_entry* entry, const Parts& parts);
  Result<void> make_hardlink(archive_entry* entry, const Parts& parts);
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
  const Parts& creates_;
  const ExtractLimits& limits_;
  const fs::path& root_;
  const int root_fd_;
  std::string entry_;  // path of the entry being unpacked, for messages
  ExtractReport report_;
  // The directories of the last path opened, kept open: chain_fds_[i] is the directory
  // chain_names_[0..i]. An archive lists a directory's entries together, so most entries
  // need no lookup at all. The descriptors stay right for the whole extraction because
  // an unpacked directory is never replaced clear_slot.
  Parts chain_names_;
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

Result<Parts> Extraction::checked_path() const {
  if (!entry_.empty() && entry_.front() == '/') return fail(refuse("absolute paths are refused"));
  Parts parts = split_path(entry_);
  if (has_dot_dot(parts)) return fail(refuse("paths containing '..' are refused"));
  if (parts.size() > limits_.max_depth) {
    return fail(refuse("deeper than max_depth (" + std::to_string(limits_.max_depth) + " path components)"));
  }
  return parts;
}

Result<void> Extraction::write_file(archive* reader, archive_entry* entry, const Parts& parts) {
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

Result<void> Extraction::make_symlink(archive_entry* entry, const Parts& parts) {
  const char* raw_target = archive_entry_symlink(entry);
  const std::string target = raw_target ? raw_target : "";
  if (target.empty()) return fail(refuse("symlink without a target"));
  if (target.front() == '/') return fail(refuse("symlink to the absolute path '" + target + "' is refused"));
  const auto parent = parent_of(parts);
  if (!resolves_within(root_, Parts(parent.begin(), parent.end()), target, creates_)) {
    return fail(refuse("symlink to '" + target + "' points outside " + confinement()));
  }
  const auto dir = TRY(open_directory(parent, true));
  return create_entry(dir, parts.back(), "cannot create the symlink",
                      [&] { return ::symlinkat(target.c_str(), dir, parts.back().c_str()) == 0; });
}

// A hardlink may only point at a regular file unpacked earlier: one to an absolute path
// would expose a file of this machine, one to a symlink could resolve differently from
// its new directory.
Result<void> Extraction::make_hardlink(archive_entry* entry, const Parts& parts) {
  const std::string target = archive_entry_hardlink(entry);
  if (!target.empty() && target.front() == '/') {
    return fail(refuse("hardlink to the absolute path '" + target + "' is refused"));
  }
  const Parts target_parts = split_path(target);
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

Result<ExtractReport> extract_into(HashingSource& source, const std::string& archive_path, const Parts& creates,
                                   const ExtractLimits& limits, const fs::path& root) {
  if (::mkdir(root.c_str(), 0755) != 0) return fail(Error::at(root.string(), 0, "", "cannot create: " + errno_text(errno)));
  const UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd.valid()) return fail(Error::at(root.string(), 0, "", "cannot open: " + errno_text(errno)));
  const Utf8Names utf8_names;  // for as long as the reader lives: a zip's UTF-8 names are read as such
  const auto reader = TRY(open_reader(archive_path, source));
  Extraction extraction(archive_path, creates, limits, root, root_fd.get());
  return extraction.run(reader.get());
}

Result<Parts> declared_path(const DataStep& step) {
  const Parts parts = split_path(step.creates);
  if (!is_confined_relative_path(step.creates) || parts.empty()) {
    return fail(Error::at(step.archive, 0, "creates",
                          "'creates' must be a relative path inside the destination without '..', got '" +
                              step.creates + "'"));
  }
  return parts;
}

fs::path stamp_path(const fs::path& destination, const Parts& creates) {
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
  return FileState{fmt::format("size={} mtime={}.{:09} ctime={}.{:09} inode={} device={}", info.st_size,
                               info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
                               info.st_ino, info.st_dev),
                   static_cast<double>(info.st_ctim.tv_sec) + static_cast<double>(info.st_ctim.tv_nsec) * 1e-9};
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

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
  std::string state;  // "" when not recorded
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
  Parts creates;  // empty: whatever the archive holds, confined to the destination
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
    if (ec) return fail(Error::at(target.string(), 0, "", "cannot move the unpacked entry into place: " + ec.message()));
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
