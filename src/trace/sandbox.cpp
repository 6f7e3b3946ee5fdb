#include "trace/sandbox.h"

#include <mutex>

#include "core/command.h"

namespace tipc::trace {
namespace {

const std::vector<std::string>& bwrap_options() {
  static const std::vector<std::string> options = {"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                                   "--unshare-net", "--unshare-pid", "--unshare-ipc",
                                                   "--die-with-parent"};
  return options;
}

// Whether bwrap runs here (it needs namespaces, which containers may refuse), and why not.
const CommandOutcome& bwrap_probe() {
  static CommandOutcome outcome;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> argv = {"bwrap"};
    argv.insert(argv.end(), bwrap_options().begin(), bwrap_options().end());
    argv.push_back("true");
    outcome = run_command(CommandSpec{argv, "", std::nullopt, 10, true, 4096});
  });
  return outcome;
}

std::string probe_failure(const CommandOutcome& probe) {
  if (!probe.launch_error.empty()) return probe.launch_error;
  return probe.error_output.empty() ? "it exited with a failure" : probe.error_output;
}

}  // namespace

Result<Sandbox> choose_sandbox(Isolation isolation) {
  static const std::string kUnguarded =
      "the runner is traced without isolation: writes outside the scratch directory, network access other than "
      "the no-op downloaders (wget, curl, git, pip) and processes that leave its process group are not prevented";
  if (isolation == Isolation::none) return Sandbox{false, "trace isolation is off: " + kUnguarded};
  const auto& probe = bwrap_probe();
  if (probe.exit_code == 0) return Sandbox{true, ""};
  if (isolation == Isolation::bwrap) {
    return fail(Error::plain("bubblewrap (bwrap) does not work here, and the trace asks for it: " + probe_failure(probe)));
  }
  return Sandbox{false, "bubblewrap (bwrap) is not usable (" + probe_failure(probe) + "), so " + kUnguarded +
                            "; install the Debian package bubblewrap"};
}

std::vector<std::string> sandboxed_argv(const Sandbox& sandbox, const std::string& writable,
                                        std::vector<std::string> argv, const std::vector<FileBind>& binds) {
  if (!sandbox.bwrap) return argv;
  std::vector<std::string> out = {"bwrap"};
  out.insert(out.end(), bwrap_options().begin(), bwrap_options().end());
  for (const auto& bind : binds) out.insert(out.end(), {"--ro-bind", bind.source, bind.target});
  out.insert(out.end(), {"--bind", writable, writable, "--"});
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace tipc::trace
