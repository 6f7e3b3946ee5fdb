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
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

// Boost 1.74 compiles its vfork launcher (bp::posix::use_vfork, see ChildSetup) only where
// this says vfork exists; it tests for pre-2008 POSIX feature macros, which glibc's
// _GNU_SOURCE does not set, although glibc declares vfork.
#define BOOST_POSIX_HAS_VFORK 1
#include <fmt/format.h>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include "core/split_list.h"
#include "core/unique_fd.h"
#include "run/run_marker.h"
#include "run/stack_dump.h"
#include "run/trainer_log.h"
#include "run/working_directory.h"

extern char** environ;

namespace tipc::run {
namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

constexpr auto kLeftoverGrace = std::chrono::seconds(2);  // group members that outlive their leader
constexpr std::size_t kReadChunk = 64 << 10;

// Runs in the child between vfork and exec: into the stage's working directory, the run's
// cgroup (where there is one), its own process group, the shared output pipe as stdout and
// stderr, the default action for SIGXFSZ (tipc-run ignores it), and death with tipc-run: a
// tipc-run killed by SIGKILL cannot stop its stages itself.
// vfork (bp::posix::use_vfork): the child borrows our memory until it execs, so a stage
// starts without a copy of tipc-run's page tables, which fork makes: measured on the
// project's 2-core VMs, 11 ms against 5 ms a child for a small process, 40 ms against 9.5 ms
// for one of a gigabyte, more again under ASan. So everything here is a plain system call on
// values prepared before (the environment is set in the parent, on_setup): no allocation,
// no lock, nothing written that the parent reads afterwards (errno aside).
// The directory is entered here and not with bp::start_dir, whose Boost 1.74 version ignores
// chdir's failure and so runs the stage in tipc-run's own directory: a child that cannot
// enter it writes chdir's errno to `chdir_report` (close-on-exec, so the parent reads EOF
// once the exec happened) and exits without running anything.
// The environment is handed to execve directly: Boost 1.74's environment lookup reads
// past the end of shorter variables (found by ASan).
struct ChildSetup : bp::extend::handler {
  const char* cwd;
  int chdir_report;
  int output_fd;
  pid_t group;
  pid_t parent;
  char** environment;
  int cgroup_procs;  // -1: no cgroup
  template <class Executor>
  void on_setup(Executor& exec) const {
    exec.env = environment;
  }
  template <class Executor>
  void on_exec_setup(Executor&) const {
    if (chdir(cwd) != 0) {
      const int reason = errno;
      [[maybe_unused]] const auto n = write(chdir_report, &reason, sizeof reason);
      _exit(127);
    }
    if (cgroup_procs >= 0) [[maybe_unused]]
      const auto n = write(cgroup_procs, "0", 1);
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
    return fail(Error::plain(fmt::format("cannot execute '{}': {}", path.string(), errno_text(errno))));
  }
  std::vector<boost::filesystem::path> dirs;
  if (const auto it = env.find("PATH"); it != env.end()) {
    for (const std::string& dir : split_list(it->second, ':')) dirs.emplace_back(dir.empty() ? "." : dir);
  }
  const auto found = bp::search_path(name, dirs);
  if (found.empty()) return fail(Error::plain(fmt::format("cannot find '{}' on PATH", name)));
  return fs::path(found.string());
}

// The launch's environment: ours, with its changes, and the run's id, which the launch
// cannot take away (the guardian and the next run find the stage's processes by it).
Environment environment_for(const Launch& launch) {
  Environment env = inherited_environment();
  for (const auto& [name, value] : launch.env) {
    if (value)
      env[name] = *value;
    else
      env.erase(name);
  }
  env[kRunIdVariable] = this_run_id();
  return env;
}

// tipc-run's rank-env launcher: what torch.distributed's env:// rendezvous reads.
void set_rank_environment(Environment& env, int rank, int ranks, const std::string& master_port) {
  env["RANK"] = std::to_string(rank);
  env["LOCAL_RANK"] = std::to_string(rank);
  env["WORLD_SIZE"] = std::to_string(ranks);
  env["LOCAL_WORLD_SIZE"] = std::to_string(ranks);
  env["MASTER_ADDR"] = "127.0.0.1";
  env["MASTER_PORT"] = master_port;
}

// What a child said about entering its working directory (ChildSetup): chdir's errno, or 0
// when it went on to exec, which closed its end of the close-on-exec pipe (EOF).
int read_chdir_report(int fd) {
  int reason = 0;
  ssize_t n = 0;
  do n = read(fd, &reason, sizeof reason);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof reason) ? reason : 0;
}

// Kills the descendants that left their process group: they were re-parented to us subreaper.
// The guardian is our child too, and is left to be released.
void kill_orphans(pid_t guardian) {
  DIR* proc = opendir("/proc");
  if (!proc) return;
  const std::string self = std::to_string(getpid());
  while (const dirent* entry = readdir(proc)) {
    std::ifstream stat(fmt::format("/proc/{}/stat", entry->d_name));
    std::string pid, comm, state, parent;
    if (!(stat >> pid >> comm >> state >> parent)) continue;
    if (parent == self && std::stoi(pid) != guardian) kill(std::stoi(pid), SIGKILL);
  }
  closedir(proc);
}

// Reaps what was killed: a SIGKILLed child is a zombie only a moment later, and a zombie
// still answers kill(pid, 0). ECHILD ends it: we have no children left.
void reap_all_children(Clock::duration limit) {
  const auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    const pid_t pid = waitpid(-1, nullptr, WNOHANG);
    if (pid < 0) break;
    if (pid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

// One stage (ninja's Subprocess): its process group, the ranks it started, the pipe they
// write to and the log that pipe is copied to. It owns both descriptors.
class ProcessExecutor::Job {
 public:
  // Opens the log and the output pipe, then starts the ranks; an error means none runs
  // (ranks already started are killed, and wait() reaps them as unknown children).
  static Result<std::unique_ptr<Job>> start(const Launch& launch, int cgroup_procs);

  const std::string& id() const { return id_; }
  int output_fd() const { return output_.get(); }
  bool cleaning_up() const { return leaders_done_.has_value(); }
  void signal(int signal) const {
    if (group_ > 0) killpg(group_, signal);
  }
  pid_t group() const { return group_; }
  std::optional<Clock::time_point> last_output() const { return last_output_; }
  // Its output so far first, so that the dump follows it in the log.
  void dump_stacks() {
    if (output_.valid()) pump();
    if (group_ > 0) dump_group_stacks(group_, [this](std::string_view text) { write_log(text.data(), text.size()); });
  }
  // Takes a reaped child's status; false when the child is none of this job's ranks.
  bool reaped(pid_t pid, int status);
  // Copies the output that arrived to the log and stops what the ranks left behind.
  void service(Clock::time_point now);
  // Its processes and output are gone, but the trainer's own log is still being appended.
  bool appending_trainer_log() const { return ended() && !complete(); }
  bool complete() const { return ended() && (trainer_log_.empty() || trainer_log_outcome_); }
  Finished finish();

 private:
  Job(const Launch& launch, UniqueFd log, UniqueFd output)
      : id_(launch.id),
        log_(std::move(log)),
        output_(std::move(output)),
        scanner_(std::make_unique<LogScanner>(launch.checks)),
        checks_(launch.checks),
        trainer_log_(launch.trainer_log) {}
  bool ended() const { return alive_.empty() && !output_.valid() && !group_alive(); }
  Result<void> start_ranks(const Launch& launch, int output_write_end, int cgroup_procs);
  Result<pid_t> start_rank(const Launch& launch, const std::string& program, const std::vector<std::string>& args,
                           char** environment, int output_write_end, int cgroup_procs);
  void record_status(int status);
  void pump();
  void append_trainer_log(Clock::time_point now);
  void write_log(const char* data, std::size_t size);
  void close_output() { output_ = UniqueFd(-1); }
  bool group_alive() const { return group_ > 0 && killpg(group_, 0) == 0; }

  std::string id_;
  UniqueFd log_;
  UniqueFd output_;  // read end of the output pipe; invalid after EOF
  std::unique_ptr<LogScanner> scanner_;
  std::vector<LogPattern> checks_;  // for the trainer log's own scanner
  std::string trainer_log_;         // Launch::trainer_log
  std::optional<TrainerLogCopy> trainer_log_copy_;
  std::optional<TrainerLogOutcome> trainer_log_outcome_;  // once appended
  Clock::time_point processes_ended_;                     // when its copy began
  pid_t group_ = 0;
  std::vector<pid_t> alive_;  // rank processes not yet reaped
  std::optional<int> exit_code_;
  std::optional<int> signal_;
  std::optional<Clock::time_point> leaders_done_;  // when the last rank exited
  std::optional<Clock::time_point> last_output_;   // when output last arrived
  bool leftovers_termed_ = false;
  bool leftovers_killed_ = false;
  std::string log_error_;  // the first failed write to the log (a full disk, a file size limit)
};

Result<std::unique_ptr<ProcessExecutor::Job>> ProcessExecutor::Job::start(const Launch& launch, int cgroup_procs) {
  if (launch.argv.empty()) return fail(Error::plain("empty command"));
  std::error_code ec;
  fs::create_directories(fs::path(launch.log_path).parent_path(), ec);
  UniqueFd log(
      open(launch.log_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (launch.append_log ? O_APPEND : O_TRUNC), 0644));
  if (!log.valid()) {
    return fail(Error::plain(fmt::format("cannot write the log {}: {}", launch.log_path, errno_text(errno))));
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return fail(Error::plain(fmt::format("cannot create a pipe: {}", errno_text(errno))));
  }
  UniqueFd read_end(pipe_fds[0]);
  const UniqueFd write_end(pipe_fds[1]);  // ours closes when this returns: EOF comes when the ranks end
  fcntl(read_end.get(), F_SETFL, O_NONBLOCK);
  std::unique_ptr<Job> job(new Job(launch, std::move(log), std::move(read_end)));
  for (const auto& note : launch.notes) {
    const std::string line = "tipc-run: " + note + "\n";
    job->write_log(line.data(), line.size());
  }
  if (auto ok = job->start_ranks(launch, write_end.get(), cgroup_procs); !ok) {
    // The stage itself is reported once, by the caller, from this error.
    job->signal(SIGKILL);
    const std::string line = "tipc-run: " + ok.error().str() + "\n";
    job->write_log(line.data(), line.size());
    return fail(ok.error());
  }
  return job;
}

Result<void> ProcessExecutor::Job::start_ranks(const Launch& launch, int output_write_end, int cgroup_procs) {
  Environment env = environment_for(launch);
  const auto program = find_program(launch.argv[0], launch.cwd, env);
  if (!program) {  // a program named relative to a directory that cannot be entered is missing because of it
    TRY(check_working_directory(launch.cwd));
    return fail(program.error());
  }
  const std::vector<std::string> args(launch.argv.begin() + 1, launch.argv.end());
  const std::string master_port = std::to_string(free_local_port());
  for (int rank = 0; rank < launch.processes; ++rank) {
    if (launch.processes > 1) set_rank_environment(env, rank, launch.processes, master_port);
    EnvironmentBlock block(env);
    const pid_t pid =
        TRY(start_rank(launch, program->string(), args, block.pointers.data(), output_write_end, cgroup_procs));
    if (group_ == 0) group_ = pid;
    setpgid(pid, group_);  // also from the parent, against the fork/exec race
    alive_.push_back(pid);
  }
  return {};
}

// One process of the stage: its pid, or why it never ran. A child that could not enter the
// working directory says so before it exits (ChildSetup), and is reaped here.
Result<pid_t> ProcessExecutor::Job::start_rank(const Launch& launch, const std::string& program,
                                               const std::vector<std::string>& args, char** environment,
                                               int output_write_end, int cgroup_procs) {
  int report_fds[2];
  if (pipe2(report_fds, O_CLOEXEC) != 0) {
    return fail(Error::plain(fmt::format("cannot create a pipe: {}", errno_text(errno))));
  }
  const UniqueFd report_read(report_fds[0]);
  UniqueFd report_write(report_fds[1]);
  pid_t pid = 0;
  try {
    bp::child child(
        bp::exe = program, bp::args = args, bp::std_in < bp::null, bp::posix::use_vfork,
        ChildSetup{
            {}, launch.cwd.c_str(), report_write.get(), output_write_end, group_, getpid(), environment, cgroup_procs});
    pid = child.id();
    child.detach();  // reaped by our own waitpid loop
  } catch (const std::exception& e) {
    return fail(Error::plain(fmt::format("cannot start {}: {}", launch.argv[0], e.what())));
  }
  report_write = UniqueFd(-1);  // closes ours: the read sees EOF once the child has exec'd
  if (const int reason = read_chdir_report(report_read.get()); reason != 0) {
    waitpid(pid, nullptr, 0);
    return fail(working_directory_error(launch.cwd, reason));
  }
  return pid;
}

bool ProcessExecutor::Job::reaped(pid_t pid, int status) {
  const auto it = std::find(alive_.begin(), alive_.end(), pid);
  if (it == alive_.end()) return false;
  alive_.erase(it);
  record_status(status);
  const bool failed = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
  if (failed && !alive_.empty()) signal(SIGTERM);  // one rank died: stop the others
  if (alive_.empty()) leaders_done_ = Clock::now();
  return true;
}

// The first rank's status, unless a later rank failed after it succeeded.
void ProcessExecutor::Job::record_status(int status) {
  const bool failed = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
  const bool first = !exit_code_ && !signal_;
  if (!first && !(failed && exit_code_ == 0)) return;
  exit_code_.reset();
  if (WIFSIGNALED(status))
    signal_ = WTERMSIG(status);
  else if (WIFEXITED(status))
    exit_code_ = WEXITSTATUS(status);
}

void ProcessExecutor::Job::service(Clock::time_point now) {
  if (output_.valid()) pump();
  if (!leaders_done_) return;
  const bool grace_over = now - *leaders_done_ >= kLeftoverGrace;
  if (group_alive()) {
    // Members that outlive the stage's processes (workers, daemons) are stopped.
    if (!leftovers_termed_) {
      leftovers_termed_ = true;
      signal(SIGTERM);
    } else if (!leftovers_killed_ && grace_over) {
      leftovers_killed_ = true;
      signal(SIGKILL);
    }
  } else if (output_.valid() && grace_over) {
    close_output();  // a pipe still held open by an escaped descendant does not keep the stage alive
  }
  if (ended()) append_trainer_log(now);
}

// A bounded piece per call (as pump's), so that wait() checks its deadline between pieces.
void ProcessExecutor::Job::append_trainer_log(Clock::time_point now) {
  if (trainer_log_.empty() || trainer_log_outcome_) return;
  if (!trainer_log_copy_) {
    trainer_log_copy_.emplace(trainer_log_, checks_);  // the files there now
    processes_ended_ = now;
  }
  char buffer[kReadChunk];
  for (int round = 0; round < 16; ++round) {
    const std::string_view piece = trainer_log_copy_->next(buffer);
    if (piece.empty()) {
      trainer_log_outcome_ = std::move(*trainer_log_copy_).finish();
      trainer_log_copy_.reset();
      return;
    }
    write_log(piece.data(), piece.size());
  }
}

// Copies whatever the pipe holds to the log (bounded by the chunk, so memory stays flat).
void ProcessExecutor::Job::pump() {
  char buffer[kReadChunk];
  for (int round = 0; round < 16; ++round) {
    const ssize_t n = read(output_.get(), buffer, sizeof buffer);
    if (n <= 0) {
      if (n == 0) close_output();
      return;  // EAGAIN: nothing more for now
    }
    last_output_ = Clock::now();
    write_log(buffer, static_cast<std::size_t>(n));
    scanner_->feed(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
}

// After a failed write (a full disk, a size limit) the pipe is still drained, so that the
// stage is not blocked, but nothing more is written.
void ProcessExecutor::Job::write_log(const char* data, std::size_t size) {
  while (size > 0 && log_error_.empty()) {
    const ssize_t w = write(log_.get(), data, size);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      log_error_ = w < 0 ? errno_text(errno) : "nothing written";
      return;
    }
    data += w;
    size -= static_cast<std::size_t>(w);
  }
}

Finished ProcessExecutor::Job::finish() {
  scanner_->finish();
  Finished done{id_, exit_code_, signal_, scanner_->findings(), "", "", std::nullopt, std::nullopt, ""};
  if (!log_error_.empty()) done.log_findings.push_back("log incomplete (" + log_error_ + ")");
  if (trainer_log_outcome_) {
    done.trainer_log_found = trainer_log_outcome_->found;
    done.processes_ended = processes_ended_;
    done.log_findings.insert(done.log_findings.end(), trainer_log_outcome_->findings.begin(),
                             trainer_log_outcome_->findings.end());
  }
  return done;
}

ProcessExecutor::ProcessExecutor(const SignalWatch& signals)
    : signals_(signals),
      interrupts_seen_(signals.interrupts()),
      cgroup_(this_run_id()),
      guardian_(this_run_id(), cgroup_.path()) {
  prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper_);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
}

// Everything is killed here, so the guardian is told that the run ended in order.
ProcessExecutor::~ProcessExecutor() {
  for (const auto& job : jobs_) job->signal(SIGKILL);
  kill_orphans(guardian_.pid());
  guardian_.release();
  reap_all_children(std::chrono::seconds(2));
  // A process that goes on (a test binary, a trace after the run) adopts no orphans it never reaps.
  prctl(PR_SET_CHILD_SUBREAPER, was_subreaper_);
}

std::size_t ProcessExecutor::running() const { return jobs_.size(); }

Result<void> ProcessExecutor::start(const Launch& launch) {
  auto job = TRY(Job::start(launch, cgroup_.procs_fd()));
  jobs_.push_back(std::move(job));
  return {};
}

void ProcessExecutor::signal(const std::string& id, int signal) {
  for (const auto& job : jobs_) {
    if (job->id() == id) job->signal(signal);
  }
}

const ProcessExecutor::Job* ProcessExecutor::job(const std::string& id) const {
  for (const auto& job : jobs_) {
    if (job->id() == id) return job.get();
  }
  return nullptr;
}

std::optional<int> ProcessExecutor::process_group(const std::string& id) const {
  const Job* found = job(id);
  return found && found->group() > 0 ? std::optional<int>(found->group()) : std::nullopt;
}

std::optional<Clock::time_point> ProcessExecutor::last_output(const std::string& id) const {
  const Job* found = job(id);
  return found ? found->last_output() : std::nullopt;
}

void ProcessExecutor::dump_stacks(const std::string& id) {
  for (const auto& job : jobs_) {
    if (job->id() == id) job->dump_stacks();
  }
}

// Every child that ended, also orphans re-parented to us (those belong to no job).
void ProcessExecutor::reap_children() {
  for (int status = 0;;) {
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (const auto& job : jobs_) {
      if (job->reaped(pid, status)) break;
    }
  }
}

std::optional<Finished> ProcessExecutor::take_finished(Clock::time_point now) {
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    (*it)->service(now);
    if ((*it)->complete()) {
      Finished done = (*it)->finish();
      jobs_.erase(it);
      return done;
    }
  }
  return std::nullopt;
}

// Until output, a signal or a child's end arrives, or `until`.
void ProcessExecutor::sleep_until_ready(Clock::time_point now, Clock::time_point until) const {
  std::vector<pollfd> fds{{signals_.wake_fd(), POLLIN, 0}};
  bool cleanup_pending = false, appending = false;
  for (const auto& job : jobs_) {
    if (job->output_fd() >= 0) fds.push_back({job->output_fd(), POLLIN, 0});
    cleanup_pending = cleanup_pending || job->cleaning_up();
    appending = appending || job->appending_trainer_log();
  }
  auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(until - now);
  // Group members cannot be waited for; look again soon while some remain.
  timeout = std::min(timeout, std::chrono::milliseconds(appending ? 0 : cleanup_pending ? 50 : 1000));
  poll(fds.data(), fds.size(), static_cast<int>(std::max<std::int64_t>(0, timeout.count())));
  signals_.drain();
}

std::optional<Finished> ProcessExecutor::wait(Clock::time_point until) {
  while (true) {
    reap_children();
    const auto now = Clock::now();
    if (auto done = take_finished(now)) return done;
    if (signals_.interrupts() != interrupts_seen_) {
      interrupts_seen_ = signals_.interrupts();
      return std::nullopt;
    }
    if (now >= until) return std::nullopt;
    sleep_until_ready(now, until);
  }
}

}  // namespace tipc::run
