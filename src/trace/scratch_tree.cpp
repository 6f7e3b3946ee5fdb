#include "trace/scratch_tree.h"

#include <linux/magic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

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

// Directories that exist in the repository, so the runner's `cd` and directory checks see them.
std::vector<std::string> shadow_directories(const fs::path& root) {
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

std::string write_file(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  return out ? "" : "cannot write " + path.string() + ": " + errno_text(errno);
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

}  // namespace

Result<RepoInputs> collect_inputs(const TraceRequest& request) {
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
  inputs.directories = shadow_directories(root);
  return inputs;
}

ScratchTree::~ScratchTree() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

Result<std::unique_ptr<ScratchTree>> ScratchTree::create(const RepoInputs& inputs, const std::string& interpreter) {
  std::string pattern = (scratch_parent() / "tipc-trace-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    return fail(Error::plain("cannot make a scratch directory: " + errno_text(errno)));
  std::unique_ptr<ScratchTree> tree(new ScratchTree(fs::canonical(pattern)));
  std::error_code ec;
  for (const auto& directory : inputs.directories) fs::create_directories(tree->repo() / directory, ec);
  for (const auto& dir : {tree->repo(), tree->bin(), tree->home(), tree->tmp()}) fs::create_directories(dir, ec);
  if (ec) return fail(Error::plain("cannot fill the scratch directory " + tree->root().string() + ": " + ec.message()));
  for (const auto& [path, bytes] : inputs.files) {
    if (auto problem = write_file(tree->repo() / path, bytes); !problem.empty()) return fail(Error::plain(problem));
  }
  if (auto problem = write_file(tree->bash_env(), bash_env_script()); !problem.empty())
    return fail(Error::plain(problem));
  const std::string stand_in = stand_in_binary();
  for (const auto& name : recorded_programs(interpreter)) fs::create_symlink(stand_in, tree->bin() / name, ec);
  for (const auto& name : unrecorded_programs()) fs::create_symlink(stand_in, tree->bin() / name, ec);
  for (const auto& program : housekeeping_programs()) fs::create_symlink(stand_in, tree->bin() / program.program, ec);
  if (ec) return fail(Error::plain("cannot place the stand-ins in " + tree->bin().string() + ": " + ec.message()));
  if (auto problem = write_file(tree->unpack_script(), unpacking_stand_in_script()); !problem.empty()) {
    return fail(Error::plain(problem));
  }
  return tree;
}

}  // namespace tipc::trace
