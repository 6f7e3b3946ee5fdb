#include "setup/replay.h"

#include <glob.h>

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/command.h"
#include "core/text.h"
#include "data/extract.h"

namespace tipc::setup {
namespace {

namespace fs = std::filesystem;
using plan::SetupAction;
using plan::SetupKind;

// A housekeeping program gets an hour; the setup stage's own timeout bounds them all.
constexpr double kProgramTimeoutSeconds = 3600;

std::string shown(const ReplayContext& setup, const fs::path& path) {
  return path.lexically_normal().lexically_relative(setup.root).generic_string();
}

// `path` (repository-relative or absolute) with the symlinks of what exists resolved:
// repository-relative while it stays inside, absolute otherwise.
std::string resolved(const fs::path& root, const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(root / path, ec);
  if (ec) return path;
  const fs::path relative = real.lexically_relative(root);
  if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  return real.string();
}

// Whether the call names `removed` with a trailing slash ("rm -rf link/"), which makes rm
// follow a symlink there: it empties the directory the link points at, not the link.
bool named_through_its_end(const SetupAction& action, const std::string& removed) {
  const auto words = action.argv.empty() ? action.argv.end() : action.argv.begin() + 1;  // after the program
  return std::any_of(words, action.argv.end(), [&](const std::string& word) {
    return word.ends_with('/') && plan::normalised_path(action.cwd, word) == removed;
  });
}

// What removing `path` deletes: the entry of that name, a symlink itself rather than what
// it points at (rm and mv remove or move the link), so only the directories above it are
// resolved; the whole path when the call follows its end.
std::string resolved_entry(const fs::path& root, const std::string& path, bool follows_end) {
  const fs::path name = fs::path(path).filename();
  if (follows_end || path == "." || name.empty() || name == "..") return resolved(root, path);
  const fs::path parent = fs::path(path).parent_path();
  return (fs::path(resolved(root, parent.empty() ? "." : parent.string())) / name).lexically_normal().generic_string();
}

Result<void> check_contained(const SetupAction& action, const ReplayContext& setup) {
  const SetupAction named = plan::relative_to_root(action, setup.root.string());
  if (const auto why = plan::refusal(named, setup.allowed)) return fail(Error::plain("refused: " + *why));
  SetupAction real = named;
  for (auto& path : real.writes) path = resolved(setup.root, path);
  for (std::size_t i = 0; i < real.removes.size(); ++i) {
    real.removes[i] = resolved_entry(setup.root, real.removes[i], named_through_its_end(action, action.removes[i]));
  }
  if (const auto why = plan::refusal(real, setup.allowed_resolved)) {
    return fail(Error::plain("refused: " + *why + ", once its symlinks are followed"));
  }
  return {};
}

Result<void> check_directory(const SetupAction& action, const ReplayContext& setup) {
  std::error_code ec;
  if (fs::is_directory(setup.root / action.cwd, ec)) return {};
  return fail(
      Error::plain(fmt::format("the directory {} does not exist: the housekeeping before this action "
                               "should have made it",
                               action.cwd)));
}

// Runs argv without a shell in the action's directory; the program's output is passed on.
Result<void> run_in_directory(const SetupAction& action, const std::vector<std::string>& argv,
                              const ReplayContext& setup) {
  CommandSpec spec;
  spec.argv = argv;
  spec.cwd = (setup.root / action.cwd).string();
  spec.timeout_seconds = kProgramTimeoutSeconds;
  spec.running_group = setup.running_group;
  const CommandOutcome outcome = run_command(spec);
  setup.out << outcome.output;
  if (!outcome.ok()) return fail(Error::plain(fmt::format("{} failed: {}", argv[0], outcome.failure())));
  return {};
}

// The action's argv without the operands at `dropped` (indices into argv).
std::vector<std::string> argv_without(const SetupAction& action, const std::vector<std::size_t>& dropped) {
  std::vector<std::string> argv;
  for (std::size_t i = 0; i < action.argv.size(); ++i) {
    if (std::ranges::find(dropped, i) == dropped.end()) argv.push_back(action.argv[i]);
  }
  return argv;
}

// `mkdir DIR` of a directory that exists counts as done, with or without -p.
Result<std::string> make_directories(const SetupAction& action, const ReplayContext& setup) {
  std::vector<std::size_t> existing;
  std::vector<std::string> made, there;
  for (std::size_t i = 0; i < action.operands.size(); ++i) {
    std::error_code ec;
    const bool exists = fs::is_directory(setup.root / action.writes[i], ec);
    if (exists) existing.push_back(action.operands[i]);
    (exists ? there : made).push_back(action.writes[i]);
  }
  if (!made.empty()) TRY(run_in_directory(action, argv_without(action, existing), setup));
  std::vector<std::string> parts;
  if (!made.empty()) parts.push_back("made " + join(made, " "));
  if (!there.empty()) parts.push_back("already there: " + join(there, " "));
  return join(parts, "; ");
}

struct NewestFile {
  fs::file_time_type time = fs::file_time_type::min();
  fs::path path;
};

// The newest regular file below `directory` (symlinks not followed), not looking into `skipped`.
NewestFile newest_file(const fs::path& directory, const fs::path& skipped) {
  NewestFile newest;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->path() == skipped) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec) || it->is_symlink(entry_ec)) continue;
    const auto time = it->last_write_time(entry_ec);
    if (!entry_ec && time > newest.time) newest = {time, it->path()};
  }
  return newest;
}

// A CMake build directory whose newest file is newer than every file of its parent tree
// outside it is kept: removing it would only make cmake and make start from scratch.
std::optional<std::string> kept_build_directory(const std::string& path, const ReplayContext& setup) {
  const fs::path directory = setup.root / path;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(directory, ec)) || !fs::is_regular_file(directory / "CMakeCache.txt", ec)) {
    return std::nullopt;
  }
  const NewestFile build = newest_file(directory, {});
  const NewestFile source = newest_file(directory.parent_path(), directory);
  if (build.path.empty() || build.time <= source.time) return std::nullopt;
  return fmt::format("kept {}: up to date with its sources (newest build file {}, newest source {})", path,
                     shown(setup, build.path), source.path.empty() ? "none" : shown(setup, source.path));
}

Result<std::string> remove_paths(const SetupAction& action, const ReplayContext& setup) {
  std::vector<std::size_t> kept;
  std::vector<std::string> removed, absent, lines;
  for (std::size_t i = 0; i < action.operands.size(); ++i) {
    std::error_code ec;
    if (auto why = kept_build_directory(action.removes[i], setup)) {
      kept.push_back(action.operands[i]);
      lines.push_back(std::move(*why));
    } else if (fs::exists(fs::symlink_status(setup.root / action.removes[i], ec))) {
      removed.push_back(action.removes[i]);
    } else {
      absent.push_back(action.removes[i]);
    }
  }
  if (removed.size() + absent.size() > 0) TRY(run_in_directory(action, argv_without(action, kept), setup));
  if (!absent.empty()) lines.insert(lines.begin(), "nothing to remove: " + join(absent, " "));
  if (!removed.empty()) lines.insert(lines.begin(), "removed " + join(removed, " "));
  return join(lines, "\n");
}

// `ln -s TARGET LINK` again, with LINK already pointing at TARGET, is done (ln would fail).
Result<std::string> link(const SetupAction& action, const ReplayContext& setup) {
  const std::string& link_path = action.writes.front();
  std::error_code ec;
  const fs::path existing = fs::read_symlink(setup.root / link_path, ec);
  const std::string parent = fs::path(link_path).parent_path().generic_string();
  if (!ec && action.reads.size() == 1 &&
      plan::normalised_path(parent.empty() ? "." : parent, existing.string()) == action.reads.front()) {
    return fmt::format("already there: {} -> {}", link_path, existing.string());
  }
  TRY(run_in_directory(action, action.argv, setup));
  return "linked " + link_path;
}

Result<std::string> download(const SetupAction& action, const ReplayContext& setup) {
  const fs::path output = setup.root / action.output;
  std::error_code ec;
  if (action.no_clobber && fs::exists(output, ec)) return fmt::format("already there: {} (wget -nc)", action.output);
  std::string how = "from the download cache:";
  if (!setup.cache.is_cached(action.url)) {
    if (setup.offline) {
      return fail(Error::plain(
          fmt::format("--offline: {} is not in the download cache {}", action.url, setup.cache.directory())));
    }
    TRY(setup.cache.fetch(action.url, action.argv[0], action.tool_options));
    how = "downloaded";
  }
  if (!TRY(setup.cache.copy_out(action.url, output.string()))) {
    return fmt::format("already there: {} (the bytes of {} in the download cache)", action.output, action.url);
  }
  return fmt::format("{} {} -> {}", how, action.url, action.output);
}

Result<std::string> extract(const SetupAction& action, const ReplayContext& setup) {
  const auto report =
      TRY(data::unpack_archive({(setup.root / action.archive).string(), (setup.root / action.destination).string()}));
  if (report.skipped) return fmt::format("already unpacked: {} (stamp {})", action.archive, shown(setup, report.stamp));
  return fmt::format("unpacked {} into {} ({} entries, {} bytes)", action.archive, action.destination, report.entries,
                     report.bytes);
}

// The clone's remote: "origin" unless -o/--origin names another.
std::string remote_name(const std::vector<std::string>& options) {
  std::string name = "origin";
  for (std::size_t i = 0; i + 1 < options.size(); ++i) {
    if (options[i] == "-o" || options[i] == "--origin") name = options[i + 1];
  }
  return name;
}

// Cloned from a mirror in the download cache (made once per URL, brought up to date when
// online), then the remote set back to the URL, so the checkout is the one `git clone URL`
// gives and a second clone of the URL needs no network.
Result<std::string> clone(const SetupAction& action, const ReplayContext& setup) {
  const fs::path target = setup.root / action.output;
  std::error_code ec;
  if (fs::exists(target / ".git", ec)) return fmt::format("skipped: {} is already a git checkout", action.output);
  std::string mirror = setup.cache.mirror_path(action.url);
  if (!setup.cache.has_mirror(action.url)) {
    if (setup.offline) {
      return fail(Error::plain(
          fmt::format("--offline: {} has no mirror in the download cache {}", action.url, setup.cache.directory())));
    }
    mirror = TRY(setup.cache.fetch_mirror(action.url));
  } else if (!setup.offline && !run_in_directory(action, {"git", "-C", mirror, "fetch", "--prune", "--quiet"}, setup)) {
    setup.out << "could not bring the mirror up to date; cloning what it holds\n";
  }
  std::vector<std::string> argv{"git", "clone"};
  argv.insert(argv.end(), action.tool_options.begin(), action.tool_options.end());
  argv.insert(argv.end(), {"file://" + mirror, target.string()});
  TRY(run_in_directory(action, argv, setup));
  TRY(run_in_directory(
      action, {"git", "-C", target.string(), "remote", "set-url", remote_name(action.tool_options), action.url},
      setup));
  return fmt::format("cloned {} into {} (through the mirror {})", action.url, action.output, mirror);
}

bool is_pattern(const std::string& word) {
  return !word.starts_with("-") && word.find_first_of("*?[") != std::string::npos;
}

// The shell's pathname expansion, which the runner's evaluated string had and an action word
// has not (`cp ${export_dir}/* ${log_dir}/`): a word with *, ? or [ becomes the paths it
// matches in the action's directory, sorted, or stays as it is when none matches (bash's
// default).
std::vector<std::string> expand_patterns(const std::vector<std::string>& argv, const fs::path& directory) {
  std::vector<std::string> out;
  for (const auto& word : argv) {
    glob_t found{};
    const std::string prefix = word.starts_with("/") ? "" : directory.string() + "/";
    if (out.empty() || !is_pattern(word) || glob((prefix + word).c_str(), 0, nullptr, &found) != 0) {
      out.push_back(word);
    } else {
      for (std::size_t k = 0; k < found.gl_pathc; ++k)
        out.push_back(std::string(found.gl_pathv[k]).substr(prefix.size()));
    }
    globfree(&found);
  }
  return out;
}

Result<SetupAction> with_patterns_expanded(const SetupAction& action, const ReplayContext& setup) {
  if (std::none_of(action.argv.begin() + 1, action.argv.end(), is_pattern)) return action;
  return plan::parse_setup_action(expand_patterns(action.argv, setup.root / action.cwd), action.cwd);
}

}  // namespace

ReplayContext make_replay_context(const ReplayScope& scope, std::ostream& out) {
  ReplayContext context{
      scope.root,    scope.allowed,       {}, data::DownloadCache(scope.cache_directory, scope.running_group),
      scope.offline, scope.running_group, out};
  for (const auto& allowed : scope.allowed) context.allowed_resolved.push_back(resolved(scope.root, allowed));
  return context;
}

Result<std::string> replay_action(const SetupAction& written, const ReplayContext& setup) {
  const SetupAction action = TRY(with_patterns_expanded(written, setup));
  TRY(check_contained(action, setup));
  TRY(check_directory(action, setup));
  switch (action.kind) {
    case SetupKind::kMakeDir: return make_directories(action, setup);
    case SetupKind::kRemove: return remove_paths(action, setup);
    case SetupKind::kLink: return link(action, setup);
    case SetupKind::kCopy:
    case SetupKind::kMove: {
      TRY(run_in_directory(action, action.argv, setup));
      return fmt::format("{} {}", action.kind == SetupKind::kCopy ? "copied to" : "moved to", action.writes.front());
    }
    case SetupKind::kDownload: return download(action, setup);
    case SetupKind::kExtract: return extract(action, setup);
    case SetupKind::kClone: return clone(action, setup);
  }
  return fail(Error::plain("unknown setup action"));
}

Result<std::vector<SetupAction>> parse_setup_actions(const std::vector<std::string>& words) {
  std::vector<SetupAction> actions;
  for (const auto& word : words) actions.push_back(TRY(plan::parse_setup_action_word(word)));
  return actions;
}

}  // namespace tipc::setup
