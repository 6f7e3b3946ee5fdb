// The only file that includes Boost.Process (slow to compile).
#include "run/process_executor.h"

#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <fmt/format.h>

extern char** environ;

namespace tipc::run {
namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

constexpr auto kLeftoverGrace = std::chrono::seconds(2);  // group members that outlive their leader
constexpr std::size_t kReadChunk = 64 << 10;

// Runs in the child between fork and exec: its own process group, the shared output
// pipe as stdout and stderr, the default action for SIGXFSZ (tipc-run ignores it), and
// death with tipc-run: a tipc-run killed by SIGKILL cannot stop its stages itself.
// The environment is handed to execve directly: Boost 1.74's environment lookup reads
// past the end of shorter variables (found by ASan).
struct ChildSetup : bp::extend::handler {
  int output_fd;
  pid_t group;
  pid_t parent;
  char** environment;
  template <class Executor>
  void on_exec_setup(Executor& exec) const {
    exec.env = environment;
    setpgid(0, group);
    dup2(output_fd, STDOUT_FILENO);
    dup2(output_fd, STDERR_FILENO);
    signal(SIGXFSZ, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // tipc-run died before the line above
  }
};

int free_local_port() {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = 29500;
  if (s >= 0 && bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      getsockname(s, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  if (s >= 0) close(s);
  return port;
}

using Environment = std::map<std::string, std::string>;

Environment inherited_environment() {
  Environment env;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string_view::npos) env.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return env;
}

// NAME=VALUE strings and the null-terminated array of pointers execve takes.
struct EnvironmentBlock {
  std::vector<std::string> entries;
  std::vector<char*> pointers;
  explicit EnvironmentBlock(const Environment& env) {
    for (const auto& [name, value] : env) entries.push_back(name + "=" + value);
    for (auto& entry : entries) pointers.push_back(entry.data());
    pointers.push_back(nullptr);
  }
};

Result<fs::path> find_program(const std::string& name, const std::string& cwd, const Environment& env) {
  if (name.find('/') != std::string::npos) {
    const fs::path path = fs::path(name).is_absolute() ? fs::path(name) : fs::path(cwd) / name;
    if (access(path.c_str(), X_OK) == 0) return path;
    return fail(Error::plain(fmt::format("cannot execute '{}': {}", path.string(), std::strerror(errno))));
  }
  std::vector<boost::filesystem::path> dirs;
  if (const auto it = env.find("PATH"); it != env.end()) {
    std::istringstream path(it->second);
    for (std::string dir; std::getline(path, dir, ':');) dirs.emplace_back(dir.empty() ? "." : dir);
  }
  const auto found = bp::search_path(name, dirs);
  if (found.empty()) return fail(Error::plain(fmt::format("cannot find '{}' on PATH", name)));
  return fs::path(found.string());
}

}  // namespace

struct ProcessExecutor::Job {
  std::string id;
  pid_t group = 0;
  std::vector<pid_t> alive;          // rank processes not yet reaped
  int output_fd = -1;                // read end of the output pipe; -1 after EOF
  int log_fd = -1;
  std::unique_ptr<LogScanner> scanner;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::optional<Clock::time_point> leaders_done;  // when the last rank exited
  bool leftovers_termed = false;
  bool leftovers_killed = false;
  std::string log_error;  // the first failed write to the log (a full disk, a file size limit)

  bool group_alive() const { return group > 0 && killpg(group, 0) == 0; }
  bool complete() const { return alive.empty() && output_fd < 0 && !group_alive(); }
};

ProcessExecutor::ProcessExecutor(const SignalWatch& signals) : signals_(signals), interrupts_seen_(signals.interrupts()) {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
}

ProcessExecutor::~ProcessExecutor() {
  for (auto& job : jobs_) {
    if (job->group > 0) killpg(job->group, SIGKILL);
  }
  // Descendants that left their process group were re-parented to us (subreaper).
  if (DIR* proc = opendir("/proc")) {
    const std::string self = std::to_string(getpid());
    while (const dirent* entry = readdir(proc)) {
      std::ifstream stat(fmt::format("/proc/{}/stat", entry->d_name));
      std::string pid, comm, state, parent;
      if (!(stat >> pid >> comm >> state >> parent)) continue;
      if (parent == self) kill(std::stoi(pid), SIGKILL);
    }
    closedir(proc);
  }
  // Reap what was killed: a SIGKILLed child is a zombie only a moment later, and a
  // zombie still answers kill(pid, 0). ECHILD ends it: we have no children left.
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < deadline) {
    const pid_t pid = waitpid(-1, nullptr, WNOHANG);
    if (pid < 0) break;
    if (pid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (auto& job : jobs_) {
    if (job->output_fd >= 0) close(job->output_fd);
    if (job->log_fd >= 0) close(job->log_fd);
  }
}

std::size_t ProcessExecutor::running() const { return jobs_.size(); }

Result<void> ProcessExecutor::start(const Launch& launch) {
  if (launch.argv.empty()) return fail(Error::plain("empty command"));
  std::error_code ec;
  fs::create_directories(fs::path(launch.log_path).parent_path(), ec);
  const int log_fd = open(launch.log_path.c_str(),
                          O_WRONLY | O_CREAT | O_CLOEXEC | (launch.append_log ? O_APPEND : O_TRUNC), 0644);
  if (log_fd < 0) {
    return fail(Error::plain(fmt::format("cannot write the log {}: {}", launch.log_path, std::strerror(errno))));
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    close(log_fd);
    return fail(Error::plain(fmt::format("cannot create a pipe: {}", std::strerror(errno))));
  }
  auto job = std::make_unique<Job>();
  job->id = launch.id;
  job->log_fd = log_fd;
  job->output_fd = pipe_fds[0];
  job->scanner = std::make_unique<LogScanner>(launch.checks);
  fcntl(job->output_fd, F_SETFL, O_NONBLOCK);

  Environment env = inherited_environment();
  for (const auto& [name, value] : launch.env) {
    if (value) env[name] = *value;
    else env.erase(name);
  }
  auto program = find_program(launch.argv[0], launch.cwd, env);
  std::string error;
  if (!program) error = program.error().str();
  const std::vector<std::string> args(launch.argv.begin() + 1, launch.argv.end());
  const std::string master_port = std::to_string(free_local_port());
  for (int rank = 0; rank < launch.processes && error.empty(); ++rank) {
    if (launch.processes > 1) {  // tipc-run's rank-env launcher
      env["RANK"] = std::to_string(rank);
      env["LOCAL_RANK"] = std::to_string(rank);
      env["WORLD_SIZE"] = std::to_string(launch.processes);
      env["LOCAL_WORLD_SIZE"] = std::to_string(launch.processes);
      env["MASTER_ADDR"] = "127.0.0.1";
      env["MASTER_PORT"] = master_port;
    }
    EnvironmentBlock block(env);
    try {
      bp::child child(bp::exe = program->string(), bp::args = args, bp::start_dir = launch.cwd, bp::std_in < bp::null,
                      ChildSetup{{}, pipe_fds[1], job->group, getpid(), block.pointers.data()});
      const pid_t pid = child.id();
      child.detach();  // reaped by our own waitpid loop
      if (job->group == 0) job->group = pid;
      setpgid(pid, job->group);  // also from the parent, against the fork/exec race
      job->alive.push_back(pid);
    } catch (const std::exception& e) {
      error = fmt::format("cannot start {}: {}", launch.argv[0], e.what());
    }
  }
  close(pipe_fds[1]);
  if (!error.empty()) {
    // Ranks that did start are killed; wait() reaps them as unknown children. The stage
    // itself is reported once, by the caller, from this error.
    if (job->group > 0) killpg(job->group, SIGKILL);
    const std::string line = "tipc-run: " + error + "\n";
    [[maybe_unused]] const auto n = write(log_fd, line.data(), line.size());
    close(job->output_fd);
    close(log_fd);
    return fail(Error::plain(error));
  }
  jobs_.push_back(std::move(job));
  return {};
}

void ProcessExecutor::signal(const std::string& id, int signal) {
  for (auto& job : jobs_) {
    if (job->id == id && job->group > 0) killpg(job->group, signal);
  }
}

namespace {

// Copies whatever the pipe holds to the log (bounded by the chunk, so memory stays flat).
void pump(ProcessExecutor::Job& job) {
  char buffer[kReadChunk];
  for (int round = 0; round < 16; ++round) {
    const ssize_t n = read(job.output_fd, buffer, sizeof buffer);
    if (n > 0) {
      const char* p = buffer;
      for (ssize_t left = n; left > 0 && job.log_error.empty();) {
        const ssize_t w = write(job.log_fd, p, static_cast<std::size_t>(left));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {  // a full disk or a size limit: keep draining the pipe so the child is not blocked
          job.log_error = w < 0 ? std::strerror(errno) : "nothing written";
          break;
        }
        p += w;
        left -= w;
      }
      job.scanner->feed(std::string_view(buffer, static_cast<std::size_t>(n)));
      continue;
    }
    if (n == 0) {
      close(job.output_fd);
      job.output_fd = -1;
    }
    return;  // EAGAIN: nothing more for now
  }
}

}  // namespace

std::optional<Finished> ProcessExecutor::wait(Clock::time_point until) {
  while (true) {
    // Reap every child that ended (also orphans re-parented to us).
    for (int status = 0;;) {
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      for (auto& job : jobs_) {
        auto it = std::find(job->alive.begin(), job->alive.end(), pid);
        if (it == job->alive.end()) continue;
        job->alive.erase(it);
        const bool failed = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
        if (!job->exit_code && !job->signal) {
          if (WIFSIGNALED(status)) job->signal = WTERMSIG(status);
          else if (WIFEXITED(status)) job->exit_code = WEXITSTATUS(status);
        } else if (failed && job->exit_code == 0) {
          job->exit_code.reset();  // a later rank failed: report its status instead of rank 0's success
          if (WIFSIGNALED(status)) job->signal = WTERMSIG(status);
          else job->exit_code = WEXITSTATUS(status);
        }
        if (failed && !job->alive.empty()) killpg(job->group, SIGTERM);  // one rank died: stop the others
        if (job->alive.empty()) job->leaders_done = Clock::now();
      }
    }
    const auto now = Clock::now();
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      Job& job = **it;
      if (job.output_fd >= 0) pump(job);
      if (job.leaders_done && job.group_alive()) {
        // Members that outlive the stage's processes (workers, daemons) are stopped.
        if (!job.leftovers_termed) {
          job.leftovers_termed = true;
          killpg(job.group, SIGTERM);
        } else if (!job.leftovers_killed && now - *job.leaders_done >= kLeftoverGrace) {
          job.leftovers_killed = true;
          killpg(job.group, SIGKILL);
        }
      }
      // Once the processes are gone, a pipe still held open by an escaped descendant does not keep the stage alive.
      if (job.leaders_done && !job.group_alive() && job.output_fd >= 0 && now - *job.leaders_done >= kLeftoverGrace) {
        close(job.output_fd);
        job.output_fd = -1;
      }
      if (job.complete()) {
        job.scanner->finish();
        Finished done{job.id, job.exit_code, job.signal, job.scanner->findings(), ""};
        if (!job.log_error.empty()) done.log_findings.push_back("log incomplete (" + job.log_error + ")");
        close(job.log_fd);
        jobs_.erase(it);
        return done;
      }
    }
    if (signals_.interrupts() != interrupts_seen_) {
      interrupts_seen_ = signals_.interrupts();
      return std::nullopt;
    }
    if (now >= until) return std::nullopt;

    std::vector<pollfd> fds{{signals_.wake_fd(), POLLIN, 0}};
    bool cleanup_pending = false;
    for (const auto& job : jobs_) {
      if (job->output_fd >= 0) fds.push_back({job->output_fd, POLLIN, 0});
      cleanup_pending = cleanup_pending || job->leaders_done.has_value();
    }
    auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(until - now);
    // Group members cannot be waited for; look again soon while some remain.
    timeout = std::min(timeout, std::chrono::milliseconds(cleanup_pending ? 50 : 1000));
    poll(fds.data(), fds.size(), static_cast<int>(std::max<std::int64_t>(0, timeout.count())));
    signals_.drain();
  }
}

}  // namespace tipc::run
