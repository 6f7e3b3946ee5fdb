#include "core/command.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "core/spawn_as_user.h"

extern char** environ;

namespace tipc {
namespace {

using Clock = std::chrono::steady_clock;

// One stream of the child: the read end of its pipe and what was kept of it.
struct Stream {
  int fd = -1;
  std::string* text = nullptr;
};

void append_bounded(std::string& text, const char* data, std::size_t size, std::size_t limit) {
  if (text.size() < limit) text.append(data, std::min(size, limit - text.size()));
}

// Reads the child's streams until both are closed (true) or the deadline passes (false).
bool read_until_closed(Stream streams[2], std::size_t limit, Clock::time_point deadline) {
  char buffer[8192];
  while (streams[0].fd >= 0 || streams[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd fds[2] = {{streams[0].fd, POLLIN, 0}, {streams[1].fd, POLLIN, 0}};
    if (poll(fds, 2, static_cast<int>(left)) < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2; ++i) {
      if (streams[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(streams[i].fd, buffer, sizeof buffer);
      if (n > 0) append_bounded(*streams[i].text, buffer, static_cast<std::size_t>(n), limit);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        close(streams[i].fd);
        streams[i].fd = -1;
      }
    }
  }
  return true;
}

// Waits for the child to exit (true) or gives up at the deadline (false); it is left to
// be reaped, so its pid, the group's id, cannot be taken by another process meanwhile.
bool wait_until(pid_t pid, Clock::time_point deadline) {
  while (true) {
    siginfo_t info{};
    const int done = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if ((done == 0 && info.si_pid == pid) || (done < 0 && errno != EINTR)) return true;
    if (Clock::now() >= deadline) return false;
    usleep(1000);
  }
}

std::vector<char*> c_strings(const std::vector<std::string>& words) {
  std::vector<char*> out;
  for (const auto& word : words) out.push_back(const_cast<char*>(word.c_str()));
  out.push_back(nullptr);
  return out;
}

int posix_spawn_request(const SpawnRequest& request, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, request.out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, request.err_fd, 2);
  if (request.cwd) posix_spawn_file_actions_addchdir_np(&actions, request.cwd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  short flags = POSIX_SPAWN_SETPGROUP;  // its own group: killed as one
  if (request.mask) {
    posix_spawnattr_setsigmask(&attributes, request.mask);
    flags |= POSIX_SPAWN_SETSIGMASK;
  }
  posix_spawnattr_setflags(&attributes, flags);
  const int error = posix_spawnp(&pid, request.argv[0], &actions, &attributes, request.argv, request.envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return error;
}

// Starts the child with stdout on out_fd and stderr on err_fd (and `child_mask` as its
// signal mask, when given), as spec.run_as when set; returns errno or 0.
int spawn(const CommandSpec& spec, int out_fd, int err_fd, pid_t& pid, const sigset_t* child_mask) {
  auto args = c_strings(spec.argv);
  std::vector<char*> env;
  if (spec.environment) env = c_strings(*spec.environment);
  const SpawnRequest request{args.data(),
                             spec.environment ? env.data() : environ,
                             spec.cwd.empty() ? nullptr : spec.cwd.c_str(),
                             out_fd,
                             err_fd,
                             child_mask};
  return spec.run_as ? spawn_as_user(request, *spec.run_as, pid) : posix_spawn_request(request, pid);
}

}  // namespace

CommandOutcome run_command(const CommandSpec& spec) {
  CommandOutcome outcome;
  if (spec.argv.empty()) return outcome;
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0 || (spec.separate_stderr && pipe2(err, O_CLOEXEC) != 0)) {
    outcome.launch_error = std::strerror(errno);
    for (int fd : {out[0], out[1]})
      if (fd >= 0) close(fd);
    return outcome;
  }
  pid_t pid = 0;
  // With running_group, signals wait until it holds the child, so that a handler reading
  // it never misses a child that has started.
  sigset_t all, previous;
  if (spec.running_group) {
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
  }
  const int error =
      spawn(spec, out[1], spec.separate_stderr ? err[1] : out[1], pid, spec.running_group ? &previous : nullptr);
  if (spec.running_group) {
    if (error == 0) spec.running_group->store(pid);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  close(out[1]);
  if (spec.separate_stderr) close(err[1]);
  Stream streams[2] = {{out[0], &outcome.output}, {err[0], &outcome.error_output}};
  if (error != 0) {
    for (auto& stream : streams)
      if (stream.fd >= 0) close(stream.fd);
    outcome.launch_error = spec.argv[0] + ": " + std::strerror(error);
    return outcome;
  }
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spec.timeout_seconds));
  const bool closed = read_until_closed(streams, spec.output_limit, deadline);
  for (auto& stream : streams)
    if (stream.fd >= 0) close(stream.fd);
  // Output closed early does not mean the child finished: it is waited for up to the deadline.
  outcome.timed_out = !closed || !wait_until(pid, deadline);
  // What it left running in its group (a server it started in the background) ends with it.
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (spec.running_group) spec.running_group->store(0);
  if (!outcome.timed_out && WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  return outcome;
}

CommandOutcome run_command(const std::vector<std::string>& argv, double timeout_seconds) {
  CommandSpec spec;
  spec.argv = argv;
  spec.timeout_seconds = timeout_seconds;
  return run_command(spec);
}

std::string CommandOutcome::failure() const {
  if (!launch_error.empty()) return launch_error;
  const std::string& text = error_output.empty() ? output : error_output;
  const std::string line = text.substr(0, text.find('\n'));
  if (timed_out) return line.empty() ? "timed out" : "timed out: " + line;
  return line.empty() ? "no output" : line;
}

}  // namespace tipc
