#include "trace/scratch_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/locations.h"
#include "trace/bash_env.h"
#include "trace/stand_ins.h"

namespace tipc::trace {
namespace fs = std::filesystem;
namespace {

constexpr int kShadowDepth = 6;
constexpr std::size_t kShadowLimit = 5000;

Result<std::string> read_bytes(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::at(path.string(), 0, "", "cannot read the " + what + ": " + errno_text(errno)));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

bool is_script(const fs::path& path) { return path.extension() == ".sh" || path.extension() == ".py"; }

// Close-on-exec: traces run on several threads, and a descriptor open for writing that
// another trace's runner inherited would make exec of the sealed stand-in fail (ETXTBSY)
// and hand that runner a file of this trace.
std::string write_file(const fs::path& path, const std::string& bytes, mode_t mode = 0666) {
  fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  std::size_t written = 0;
  while (fd >= 0 && written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const int error = fd < 0 || written < bytes.size() ? errno : 0;
  if (fd >= 0 && ::close(fd) != 0 && error == 0) return "cannot write " + path.string() + ": " + errno_text(errno);
  return error == 0 ? "" : "cannot write " + path.string() + ": " + errno_text(error);
}

bool is_writable_tmpfs(const char* directory) {
  struct statfs info {};
  return directory != nullptr && *directory != '\0' && statfs(directory, &info) == 0 && info.f_type == TMPFS_MAGIC &&
         access(directory, W_OK | X_OK) == 0;
}

// Whether a user other than its owner can reach `directory`: every directory from it up to
// the root lets others pass (o+x). A root tipc-run's sandbox runs as another user
// (sandbox.cpp), which must reach the scratch tree it is handed: a private $TMPDIR (0700, as
// `mktemp -d` and per-user temp directories make them) or root's XDG_RUNTIME_DIR does not.
bool reachable_by_others(const fs::path& directory) {
  std::error_code ec;
  for (fs::path dir = fs::canonical(directory, ec); !ec && !dir.empty(); dir = dir.parent_path()) {
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0 || (info.st_mode & S_IXOTH) == 0) return false;
    if (dir == dir.root_path()) return true;
  }
  return false;
}

// Usable as the scratch trees' parent: reachable by the sandbox's user when tipc-run is root.
bool usable_parent(const char* directory) {
  return directory != nullptr && *directory != '\0' && (geteuid() != 0 || reachable_by_others(directory));
}

// Where scratch trees go: $TMPDIR when it is set (and usable); else a memory file system when
// there is one, because a trace creates and removes a few hundred files and on ext4 the inode
// allocator's scan past recently deleted inodes then costs more than the runner itself
// (bench/RESULTS.md, trace cost); else the system's temp directory.
fs::path scratch_parent() {
  if (const char* tmpdir = std::getenv("TMPDIR"); usable_parent(tmpdir)) return tmpdir;
  const char* const candidates[] = {std::getenv("XDG_RUNTIME_DIR"), "/dev/shm"};
  for (const char* candidate : candidates) {
    if (is_writable_tmpfs(candidate) && usable_parent(candidate)) return candidate;
  }
  return "/tmp";  // not fs::temp_directory_path(), which is $TMPDIR again
}

// While alive, the calling thread creates files as `owner`: setfsuid and setfsgid change the
// file-system ids of this thread alone (Linux keeps credentials per thread, and glibc does
// not pass these two on to the other threads as it does setuid), so the other traces'
// threads keep root's. Created that way, the tree needs no chown of each entry afterwards.
class CreatingAs {
 public:
  explicit CreatingAs(std::optional<unsigned> owner) : active_(owner && geteuid() == 0) {
    if (!active_) return;
    setfsgid(*owner);
    setfsuid(*owner);
    // setfsuid answers the previous id: asking again with an invalid one reads the current.
    ok_ = static_cast<unsigned>(setfsuid(static_cast<uid_t>(-1))) == *owner &&
          static_cast<unsigned>(setfsgid(static_cast<gid_t>(-1))) == *owner;
  }
  ~CreatingAs() {
    if (!active_) return;
    setfsuid(0);
    setfsgid(0);
  }
  CreatingAs(const CreatingAs&) = delete;
  CreatingAs& operator=(const CreatingAs&) = delete;
  bool ok() const { return !active_ || ok_; }

 private:
  bool active_ = false;
  bool ok_ = false;
};

Result<void> fill(const ScratchTree& tree, const RepoInputs& inputs, const std::string& interpreter);

constexpr int kRemoveDepth = 64;

struct Entry {
  std::string name;
  unsigned char type;  // d_type
};

// A directory's entries but . and .., read whole before any is removed, by getdents64 on the
// descriptor (opendir would also fstat it and set its flags: two more calls a directory).
std::vector<Entry> list_entries(int fd) {
  thread_local std::vector<char> buffer(1 << 15);
  std::vector<Entry> entries;
  for (ssize_t n; (n = getdents64(fd, buffer.data(), buffer.size())) > 0;) {
    for (ssize_t offset = 0; offset < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buffer.data() + offset);
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..") entries.push_back({std::string(name), entry->d_type});
      offset += entry->d_reclen;
    }
  }
  return entries;
}

// Removes what the directory `name` (relative to `parent`; `relative` on the way down from
// where the sweep began) holds, showing each regular file to on_file before it goes. By the
// entries' types as the directory lists them, without the stat of each entry that
// std::filesystem::remove_all makes: a trace's tree holds every shadowed directory of the
// repository, thousands in a large one. Never follows a link. Whether it emptied it.
bool sweep_entries(int parent, const char* name, const std::string& relative, int depth,
                   const ScratchTree::FileVisitor& on_file) {
  constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = openat(parent, name, kFlags);
  // A directory the runner closed to itself (chmod 000): without root's powers tipc-run, its
  // owner too, opens it again first. Never through a link (EOPNOTSUPP on one).
  if (fd < 0 && errno == EACCES && fchmodat(parent, name, 0700, AT_SYMLINK_NOFOLLOW) == 0)
    fd = openat(parent, name, kFlags);
  if (fd < 0) return false;
  bool emptied = true;
  for (const auto& entry : list_entries(fd)) {
    const std::string path = relative.empty() ? entry.name : relative + "/" + entry.name;
    if (entry.type == DT_DIR) {
      emptied = depth < kRemoveDepth && sweep_entries(fd, entry.name.c_str(), path, depth + 1, on_file) &&
                unlinkat(fd, entry.name.c_str(), AT_REMOVEDIR) == 0 && emptied;
      continue;
    }
    if (entry.type == DT_REG && on_file) on_file(path);
    emptied = entry.type != DT_UNKNOWN && unlinkat(fd, entry.name.c_str(), 0) == 0 && emptied;
  }
  close(fd);
  return emptied;
}

}  // namespace

std::vector<std::string> shadow_directories(const std::string& repo_root) {
  const fs::path root(repo_root);
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && out.size() < kShadowLimit; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_symlink(entry_ec) || !it->is_directory(entry_ec)) continue;
    const auto name = it->path().filename().string();
    const auto relative = it->path().lexically_relative(root).generic_string();
    // Training output would change the runner's decisions; plans assume none (docs/reference-runner.md#the-recorded-corpus).
    if (name.starts_with(".") || relative == kOutputTree) {
      it.disable_recursion_pending();
      continue;
    }
    if (it.depth() + 1 >= kShadowDepth) it.disable_recursion_pending();
    out.push_back(relative);
  }
  return out;
}

Result<RepoInputs> collect_inputs(const TraceRequest& request, std::vector<std::string> directories) {
  RepoInputs inputs;
  const fs::path root(request.repo_root);
  const fs::path runner = root / request.runner;
  std::error_code ec;
  if (request.runner.empty() || !fs::is_regular_file(runner, ec)) {
    return fail(Error::at(runner.string(), 0, "", "no runner script to trace: " + runner.string() + " does not exist"));
  }
  for (const auto& entry : fs::directory_iterator(runner.parent_path(), ec)) {
    if (!entry.is_regular_file() || !is_script(entry.path())) continue;
    inputs.files[entry.path().lexically_relative(root).generic_string()] =
        TRY(read_bytes(entry.path(), "runner's directory file"));
  }
  inputs.config_path = (fs::path(request.run_dir) / request.config_arg).lexically_normal().generic_string();
  inputs.files[inputs.config_path] = TRY(read_bytes(root / inputs.config_path, "config"));
  inputs.directories = std::move(directories);
  return inputs;
}

void ScratchTree::sweep_repo(const FileVisitor& on_file) const {
  sweep_entries(AT_FDCWD, repo().c_str(), "", 0, on_file);
}

Result<fs::path> ScratchTree::sealed_copy(const fs::path& file) const {
  const fs::path directory = root_ / "sealed";
  const fs::path copy = directory / file.filename();
  if (mkdir(directory.c_str(), 0755) != 0 && errno != EEXIST) {
    return fail(Error::plain("cannot make " + directory.string() + ": " + errno_text(errno)));
  }
  const std::string bytes = TRY(read_bytes(file, "stand-in"));
  if (auto problem = write_file(copy, bytes, 0555); !problem.empty()) return fail(Error::plain(problem));
  // The modes whatever tipc-run's umask: the sandbox's user must pass and run.
  if (chmod(directory.c_str(), 0755) != 0 || chmod(copy.c_str(), 0555) != 0) {
    return fail(Error::plain("cannot open " + copy.string() + " to the trace sandbox: " + errno_text(errno)));
  }
  return copy;
}

ScratchTree::~ScratchTree() {
  if (sweep_entries(AT_FDCWD, root_.c_str(), "", 0, nullptr)) rmdir(root_.c_str());
  std::error_code ec;
  fs::remove_all(root_, ec);  // whatever the fast way left (deeper than kRemoveDepth, no d_type)
}

Result<std::unique_ptr<ScratchTree>> ScratchTree::create(const RepoInputs& inputs, const std::string& interpreter,
                                                         std::optional<unsigned> owner, bool sealed) {
  std::string pattern = (scratch_parent() / "tipc-trace-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    return fail(Error::plain("cannot make a scratch directory: " + errno_text(errno)));
  std::unique_ptr<ScratchTree> tree(new ScratchTree(fs::canonical(pattern)));
  // Made by tipc-run in a directory the owner may not write to, then given to it.
  const bool handed_over = owner && geteuid() == 0;
  if (handed_over && lchown(tree->root().c_str(), *owner, *owner) != 0) {
    return fail(Error::plain("cannot hand " + tree->root().string() + " to the trace sandbox: " + errno_text(errno)));
  }
  tree->stand_in_ = sealed ? TRY(tree->sealed_copy(stand_in_binary())) : fs::path(stand_in_binary());
  const CreatingAs creating(owner);
  if (!creating.ok()) return fail(Error::plain("cannot create the scratch directory as the trace sandbox's user"));
  TRY(fill(*tree, inputs, interpreter));
  return tree;
}

namespace {

Result<void> fill(const ScratchTree& tree, const RepoInputs& inputs, const std::string& interpreter) {
  std::error_code ec;
  for (const auto& dir : {tree.repo(), tree.bin(), tree.home(), tree.tmp()}) fs::create_directories(dir, ec);
  if (ec) return fail(Error::plain("cannot fill the scratch directory " + tree.root().string() + ": " + ec.message()));
  // Parents before children (shadow_directories walks top-down): one mkdir each, where
  // create_directories would stat every component of every path first.
  for (const auto& directory : inputs.directories) {
    const auto path = tree.repo() / directory;
    if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
      return fail(Error::plain("cannot fill the scratch directory: " + path.string() + ": " + errno_text(errno)));
    }
  }
  for (const auto& [path, bytes] : inputs.files) {
    if (auto problem = write_file(tree.repo() / path, bytes); !problem.empty()) return fail(Error::plain(problem));
  }
  if (auto problem = write_file(tree.bash_env(), bash_env_script()); !problem.empty())
    return fail(Error::plain(problem));
  const fs::path& stand_in = tree.stand_in();
  for (const auto& name : recorded_programs(interpreter)) fs::create_symlink(stand_in, tree.bin() / name, ec);
  for (const auto& name : unrecorded_programs()) fs::create_symlink(stand_in, tree.bin() / name, ec);
  for (const auto& program : housekeeping_programs()) fs::create_symlink(stand_in, tree.bin() / program.program, ec);
  if (ec) return fail(Error::plain("cannot place the stand-ins in " + tree.bin().string() + ": " + ec.message()));
  if (auto problem = write_file(tree.unpack_script(), unpacking_stand_in_script()); !problem.empty()) {
    return fail(Error::plain(problem));
  }
  return {};
}

}  // namespace

}  // namespace tipc::trace
