#include "run/guardian.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <vector>

#include <fmt/format.h>

#include "core/visible_text.h"
#include "run/run_cgroup.h"
#include "run/run_marker.h"

namespace tipc::run {
namespace {

constexpr char kEndedInOrder = 'r';
constexpr int kSocketFd = 3;    // where the guardian keeps its end; every other descriptor above 2 is closed
constexpr int kMaxScans = 200;  // with the pause below: gives up after about 2 s
constexpr long kBetweenScansNs = 10'000'000;

void pause_between_scans() {
  const timespec pause{0, kBetweenScansNs};
  nanosleep(&pause, nullptr);
}

// SIGKILLs what carries the run's id until a scan finds nothing: a process that forked
// before its SIGKILL arrived left a child with the same id for the next scan. Returns what
// it killed; `survivors` what was still there at the last scan (a process stuck in the kernel).
std::vector<RunProcess> kill_processes_of(const std::string& run_id, std::vector<RunProcess>& survivors) {
  std::vector<RunProcess> killed;
  for (int scan = 0; scan < kMaxScans; ++scan) {
    survivors = processes_of_run(run_id);
    if (survivors.empty()) break;
    for (const auto& process : survivors) {
      kill(process.pid, SIGKILL);
      const auto same = [&](const RunProcess& k) { return k.pid == process.pid; };
      if (std::none_of(killed.begin(), killed.end(), same)) killed.push_back(process);
    }
    pause_between_scans();
  }
  return killed;
}

// A line on stderr, written with write(2) (no stdio in the guardian); its processes' command
// lines come from the stages' configs: shown as visible text, as every console line is.
void say(const std::string& text) {
  const std::string line = visible_text(text);
  for (std::size_t at = 0; at < line.size();) {
    const ssize_t n = write(STDERR_FILENO, line.data() + at, line.size() - at);
    if (n <= 0 && errno != EINTR) return;  // nobody reads stderr any more (a closed CI log)
    if (n > 0) at += static_cast<std::size_t>(n);
  }
}

// The guardian's environment: its own process group, deaf to what stops a run (and to
// SIGPIPE from a closed stderr), stdin and stdout on /dev/null so that it holds no pipe a
// reader waits on, and no other descriptor of tipc-run's open (a lock, a log) but stderr
// and its socket.
void become_guardian(int socket_fd) {
  setpgid(0, 0);
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) signal(s, SIG_IGN);
  signal(SIGCHLD, SIG_DFL);
  prctl(PR_SET_NAME, "tipc-guardian");
  const int kept = fcntl(socket_fd, F_DUPFD, kSocketFd + 1);  // out of the way, even when tipc-run had no stdin
  const int null_fd = open("/dev/null", O_RDWR);
  dup2(null_fd, STDIN_FILENO);
  dup2(null_fd, STDOUT_FILENO);
  dup2(kept, kSocketFd);
  close_range(kSocketFd + 1, ~0U, 0);
}

[[noreturn]] void guard_run(int socket_fd, const std::string& run_id, const std::string& cgroup_path, pid_t run_pid) {
  become_guardian(socket_fd);
  char word = 0;
  ssize_t n = 0;
  while ((n = read(kSocketFd, &word, 1)) < 0 && errno == EINTR) {
  }
  if (n == 1 && word == kEndedInOrder) _exit(0);
  std::vector<RunProcess> survivors;
  const auto killed = kill_processes_of(run_id, survivors);
  kill_cgroup(cgroup_path);
  if (!killed.empty()) {
    say(
        fmt::format("tipc-run: guardian: tipc-run (pid {}) ended without stopping its stages; killed {} of its "
                    "processes: {}\n",
                    run_pid, killed.size(), describe(killed)));
  }
  if (!survivors.empty())
    say(fmt::format("tipc-run: guardian: still running after SIGKILL: {}\n", describe(survivors)));
  _exit(0);
}

}  // namespace

Guardian::Guardian(const std::string& run_id, const std::string& cgroup_path) : to_guardian_(-1) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return;
  const pid_t run_pid = getpid();
  const pid_t pid = fork();
  if (pid == 0) guard_run(ends[1], run_id, cgroup_path, run_pid);
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    return;
  }
  to_guardian_ = UniqueFd(ends[0]);
  setpgid(pid, pid);  // also from here, so that it is in its own group before any stage starts
  pid_ = pid;
}

void Guardian::release() {
  if (!active()) return;
  [[maybe_unused]] const auto sent = send(to_guardian_.get(), &kEndedInOrder, 1, MSG_NOSIGNAL);
  to_guardian_ = UniqueFd(-1);
  while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

}  // namespace tipc::run
