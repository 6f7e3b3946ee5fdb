#pragma once
// The scratch copy a runner is traced in: the files next to the runner, the config, empty
// shadows of the repository's directories (so that `cd deploy` works), and beside it the
// stand-ins' PATH directory, a throw-away HOME and the trace's logs. Removed when dropped.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "trace/trace_request.h"

namespace tipc::trace {

// What of the repository the trace sees; also the trace cache's key material.
struct RepoInputs {
  std::map<std::string, std::string> files;  // path relative to the repository root -> bytes
  std::vector<std::string> directories;      // relative, shadowed empty
  std::string config_path;                   // relative to the repository root
};

// The repository's directories, relative, that a scratch copy shadows empty: not hidden
// ones, not test_tipc/output, at most 6 deep and 5000. One walk serves every trace of a
// repository (trace_runners), which matters for a repository of thousands of directories.
std::vector<std::string> shadow_directories(const std::string& repo_root);

// Reads the runner's directory files (*.sh, *.py) and the config; `directories` are the
// repository's, from shadow_directories.
Result<RepoInputs> collect_inputs(const TraceRequest& request, std::vector<std::string> directories);

class ScratchTree {
 public:
  ~ScratchTree();
  ScratchTree(const ScratchTree&) = delete;
  ScratchTree& operator=(const ScratchTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path repo() const { return root_ / "repo"; }
  std::filesystem::path bin() const { return root_ / "trace/bin"; }
  std::filesystem::path home() const { return root_ / "trace/home"; }
  std::filesystem::path tmp() const { return root_ / "trace/tmp"; }
  std::filesystem::path calls_log() const { return root_ / "trace/calls"; }
  std::filesystem::path evals_log() const { return root_ / "trace/evals"; }
  std::filesystem::path bash_env() const { return root_ / "trace/bash_env.sh"; }
  std::filesystem::path unpack_script() const { return root_ / "trace/unpack.sh"; }

  // Removes the repository copy, showing each regular file in it (not a link) to on_file
  // first, by its path relative to repo(): one walk reads what the runner left and clears it.
  using FileVisitor = std::function<void(const std::string& relative)>;
  void sweep_repo(const FileVisitor& on_file) const;

  // The stand-in binary the trace runs (the PATH entries of bin() link to it): tipc-run's
  // own, or a sealed copy in the tree (create).
  const std::filesystem::path& stand_in() const { return stand_in_; }

  // Everything inside the tree is created as `owner` (uid and gid) when given and tipc-run is
  // root: the sandbox's user, which must write there (trace/sandbox.h, sandbox_user). With
  // `sealed` (a bubblewrap sandbox) the tree holds a copy of the stand-in, a 0555 file in a
  // 0755 directory of tipc-run's own user, sealed/: the sandbox shows nothing of the
  // stand-in's own path (a build tree in a home directory), root's sandbox user runs it
  // where it could not reach the original (a build tree in /root, 0700), and can neither
  // change nor remove it.
  static Result<std::unique_ptr<ScratchTree>> create(const RepoInputs& inputs, const std::string& interpreter,
                                                     std::optional<unsigned> owner = std::nullopt, bool sealed = false);

 private:
  explicit ScratchTree(std::filesystem::path root) : root_(std::move(root)) {}
  Result<std::filesystem::path> sealed_copy(const std::filesystem::path& file) const;
  std::filesystem::path root_;
  std::filesystem::path stand_in_;
};

}  // namespace tipc::trace
