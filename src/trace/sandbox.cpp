#include "trace/sandbox.h"

#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "core/command.h"

namespace tipc::trace {
namespace {

namespace fs = std::filesystem;

// The host id a root tipc-run's sandbox runs as: the kernel's overflow id, "nobody" on
// Debian, which owns no file and no process of the host.
constexpr uid_t kSandboxId = 65534;

// The user the sandbox runs as: as root, bwrap's user namespace would map the runner to root
// outside, which still owns (and so reads) root's 0600 files; as nobody it owns nothing.
std::optional<unsigned> user_when_root() {
  if (geteuid() != 0) return std::nullopt;
  return kSandboxId;
}

// The system as programs need it, read-only; a merged-/usr link stays a link.
std::vector<std::string> system_directories() {
  std::vector<std::string> out;
  for (const char* path : {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (fs::is_symlink(status)) {
      out.insert(out.end(), {"--symlink", fs::read_symlink(path, ec).string(), path});
    } else if (fs::is_directory(status)) {
      out.insert(out.end(), {"--ro-bind", path, path});
    }
  }
  return out;
}

const std::vector<std::string>& bwrap_options() {
  static const std::vector<std::string> options = [] {
    std::vector<std::string> out = {"bwrap",         "--unshare-user",   "--disable-userns", "--unshare-pid",
                                    "--unshare-ipc", "--unshare-net",    "--cap-drop",       "ALL",
                                    "--new-session", "--die-with-parent"};
    const auto system = system_directories();
    out.insert(out.end(), system.begin(), system.end());
    out.insert(out.end(), {"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"});
    return out;
  }();
  return options;
}

// Whether bwrap runs here (it needs namespaces, which containers may refuse), and why not.
const CommandOutcome& bwrap_probe() {
  static CommandOutcome outcome;
  static std::once_flag once;
  std::call_once(once, [] {
    CommandSpec spec;
    spec.argv = bwrap_options();
    spec.argv.push_back("true");
    spec.timeout_seconds = 10;
    spec.separate_stderr = true;
    spec.output_limit = 4096;
    spec.run_as = user_when_root();
    outcome = run_command(spec);
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
    return fail(
        Error::plain("bubblewrap (bwrap) does not work here, and the trace asks for it: " + probe_failure(probe)));
  }
  return Sandbox{false, "bubblewrap (bwrap) is not usable (" + probe_failure(probe) + "), so " + kUnguarded +
                            "; install the Debian package bubblewrap (it needs unprivileged user namespaces)"};
}

std::optional<unsigned> sandbox_user(const Sandbox& sandbox) {
  if (!sandbox.bwrap) return std::nullopt;
  return user_when_root();
}

std::vector<std::string> sandboxed_argv(const Sandbox& sandbox, const std::string& writable,
                                        std::vector<std::string> argv, const std::vector<FileBind>& binds) {
  if (!sandbox.bwrap) return argv;
  std::vector<std::string> out = bwrap_options();
  for (const auto& bind : binds) out.insert(out.end(), {"--ro-bind", bind.source, bind.target});
  out.insert(out.end(), {"--bind", writable, writable, "--"});
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace tipc::trace
