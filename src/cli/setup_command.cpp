#include "cli/setup_command.h"

#include <signal.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <variant>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "core/locations.h"
#include "setup/replay.h"

namespace tipc::cli {
namespace {

namespace fs = std::filesystem;

// The process group of the program running now. Each runs in a group of its own, so the
// SIGTERM that stops the setup stage's group (its timeout, an interrupt) is passed on to it
// here; otherwise a download would go on after the stage ended.
std::atomic<int> running_setup_group{0};

void pass_termination_on(int signal_number) {
  if (const int group = running_setup_group.load(); group > 0) ::kill(-group, signal_number);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

void pass_terminations_on() {
  struct sigaction action {};
  action.sa_handler = pass_termination_on;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
}

// Without a download cache (no HOME, or TIPC_DOWNLOAD_CACHE set empty: core/locations.h),
// downloads and clones still go through one, made for this setup and removed after it.
class SetupCache {
 public:
  SetupCache() : directory_(download_cache_directory()) {
    if (!directory_.empty()) return;
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "tipc-run-downloads-XXXXXX").string();
    if (::mkdtemp(pattern.data())) directory_ = throw_away_ = pattern;
  }
  ~SetupCache() {
    std::error_code ec;
    if (!throw_away_.empty()) fs::remove_all(throw_away_, ec);
  }
  SetupCache(const SetupCache&) = delete;
  SetupCache& operator=(const SetupCache&) = delete;
  const std::string& directory() const { return directory_; }

 private:
  std::string directory_, throw_away_;
};

struct SetupArgs {
  bool offline = false;
  std::vector<std::string> allowed;
  std::vector<std::string> actions;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<SetupArgs, int> parse_setup_args(const std::vector<std::string>& args, std::ostream& out,
                                              std::ostream& err) {
  SetupArgs parsed;
  CLI::App app{"Replay a runner's housekeeping (a plan's setup stage) from the repository root", "tipc-run setup"};
  app.add_flag("--offline", parsed.offline, "refuse downloads and clones that are not in the download cache");
  app.add_option("--allow", parsed.allowed,
                 "a directory outside the repository that the actions may write (the run's output directory)")
      ->allow_extra_args(false);
  app.add_option("ACTION", parsed.actions, "'cd DIR && PROGRAM ARG...', run in order")->required();
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

}  // namespace

int setup_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_setup_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const SetupArgs& setup_args = std::get<SetupArgs>(parsed);
  const auto actions = setup::parse_setup_actions(setup_args.actions);
  if (!actions) return subcommand_error("setup", actions.error(), err);
  std::error_code ec;
  const SetupCache cache;
  const setup::ReplayScope scope{fs::canonical(fs::current_path(), ec), setup_args.allowed, cache.directory(),
                                 setup_args.offline, &running_setup_group};
  const setup::ReplayContext context = setup::make_replay_context(scope, out);
  for (std::size_t i = 0; i < actions->size(); ++i) {
    out << "+ " << setup_args.actions[i] << '\n' << std::flush;
    auto done = setup::replay_action((*actions)[i], context);
    if (!done) {
      out << std::flush;
      Error error = done.error();
      error.exit_code = kExitFailed;
      return subcommand_error("setup", error, err);
    }
    out << *done << '\n' << std::flush;
  }
  return kExitPassed;
}

int setup_main(const std::vector<std::string>& args) {
  pass_terminations_on();
  return setup_main(args, std::cout, std::cerr);
}

}  // namespace tipc::cli
