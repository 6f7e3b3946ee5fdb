#pragma once
// A runner's housekeeping call (`mkdir build`, `rm -rf build`, `wget -nc URL`, `tar zxf
// lib.tgz`, `git clone URL`) read into what it does: its kind and the paths it reads,
// writes and removes. The traced planner turns such calls into setup stages (ordering them
// by these paths, refusing at plan time what `refusal` refuses); `tipc-run setup` replays
// them. Pure: no I/O, paths are normalised as text only (the run-time check resolves the
// symlinks of what exists).
//
// Paths are repository-relative ("deploy/cpp/build", "." for the root) when the call names
// them relative to its directory, absolute ("/opt/x") when it names them so; a relative
// path that climbs out of the repository keeps its leading ".." ("../x").
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "plan/path_relation.h"  // normalised_path: how this header's paths are written

namespace tipc::plan {

enum class SetupKind { kMakeDir, kRemove, kCopy, kMove, kLink, kDownload, kExtract, kClone };

// "make_dir", "remove", "copy", "move", "link", "download", "extract", "clone".
std::string to_string(SetupKind kind);

struct SetupAction {
  SetupKind kind = SetupKind::kMakeDir;
  std::string cwd;                    // the call's directory, repository-relative
  std::vector<std::string> argv;      // the call as traced: program and arguments
  std::vector<std::size_t> operands;  // indices into argv of the path operands (mkdir, rm)
  std::vector<std::string> reads;     // sources, archives, a symlink's target
  std::vector<std::string> writes;    // what it creates or overwrites (a directory: below it too)
  std::vector<std::string> removes;   // what it deletes (rm's operands, mv's sources)
  // kDownload and kClone: the URL. kDownload: `output` is the file written, `no_clobber` is
  // wget's -nc (an existing output is kept), `tool_options` the options that change how the
  // tool fetches (--no-check-certificate, -k, headers), for the download cache to pass on.
  // kClone: `output` is the directory cloned into, `tool_options` clone's options (--depth 1).
  std::string url;
  std::string output;
  bool no_clobber = false;
  std::vector<std::string> tool_options;
  // kExtract: the archive (also in `reads`) and the directory its entries land in.
  std::string archive;
  std::string destination;
};

// Reads one call: argv[0] is mkdir, rm, cp, mv, ln, wget, curl, tar, unzip or git (git
// clone only), `cwd` its directory relative to the repository root. An error names the word
// it could not read: an unknown option, a missing operand, a form that is not replayed (tar
// without x, curl writing to stdout, git other than clone).
Result<SetupAction> parse_setup_action(const std::vector<std::string>& argv, const std::string& cwd);

// Reads the contract's action word `cd DIR && PROGRAM ARG...` (plan::shell_words quoting).
Result<SetupAction> parse_setup_action_word(const std::string& word);

// The contract's action word for a call: `cd CWD && PROGRAM ARG...`.
std::string setup_action_word(const SetupAction& action);

// Why the action may not run, or nullopt: every path it writes, moves or removes must lie
// inside the repository (relative, not climbing out with ".."; the root itself is never
// removed) or inside one of `allowed_roots` (absolute, or relative to the repository root).
// "rm -rf /usr/local/x removes a path outside the repository and its output tree".
std::optional<std::string> refusal(const SetupAction& action, const std::vector<std::string>& allowed_roots);

// The action with its absolute paths inside `repo_root` (absolute, or the text a trace maps
// the root to, such as "<REPO_ROOT>"; "." leaves the action as it is) made
// repository-relative ("." for the root itself), as a runner's `$(pwd)/...` or
// `${PWD}/test_tipc/output/...` names them; so `refusal` and the orderings see them inside.
SetupAction relative_to_root(SetupAction action, const std::string& repo_root);

}  // namespace tipc::plan
