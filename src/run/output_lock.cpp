#include "run/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "core/own_command_line.h"
#include "run/run_marker.h"

namespace tipc::run {
namespace fs = std::filesystem;
namespace {

// How long an earlier run's processes get to end before the directory is refused: its
// guardian may be killing them at this moment (it takes milliseconds).
constexpr auto kEarlierRunGrace = std::chrono::seconds(1);

std::string lock_path(const std::string& dir) { return (fs::path(dir) / kLockFileName).string(); }

// The holder's line and its run id, written over whatever an earlier holder left.
void write_holder(int fd) {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  const std::string text = fmt::format("pid {}, started {:%Y-%m-%d %H:%M:%S} UTC, command: {}\n{}{}\n", getpid(),
                                       fmt::gmtime(now), own_command_line_text(), kRunIdPrefix, this_run_id());
  if (ftruncate(fd, 0) == 0) [[maybe_unused]]
    const auto n = pwrite(fd, text.data(), text.size(), 0);
}

std::string in_use(const std::string& dir) {
  const std::string holder = lock_holder(dir);
  return fmt::format("{} is in use by another tipc-run ({})", dir,
                     holder.empty() ? "it has not said who it is yet" : holder);
}

// The run id on the lock file's second line; "" when an earlier holder wrote none.
std::string recorded_run_id(const std::string& dir) {
  std::ifstream in(lock_path(dir));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  return line.starts_with(kRunIdPrefix) ? line.substr(std::string_view(kRunIdPrefix).size()) : "";
}

// The earlier run's processes still alive after the grace.
std::vector<RunProcess> leftovers_of(const std::string& run_id) {
  if (run_id.empty() || run_id == this_run_id()) return {};
  const auto deadline = std::chrono::steady_clock::now() + kEarlierRunGrace;
  auto alive = processes_of_run(run_id);
  while (!alive.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    alive = processes_of_run(run_id);
  }
  return alive;
}

// Called with the lock held, before this run's holder line replaces the earlier one.
// `ended_runs`: the runs already found to have no process left (a suite's directories
// mostly share one earlier run: /proc is scanned once for it).
Result<void> refuse_leftovers(const std::string& dir, std::set<std::string>& ended_runs) {
  const std::string earlier = recorded_run_id(dir);
  if (ended_runs.contains(earlier)) return {};
  const auto alive = leftovers_of(earlier);
  if (alive.empty()) {
    ended_runs.insert(earlier);
    return {};
  }
  std::vector<pid_t> pids;
  for (const auto& process : alive) pids.push_back(process.pid);
  return fail(Error::plain(fmt::format(
      "{} still has processes of an earlier run ({}): {}; they would write into it while this run does. Stop them "
      "(kill -9 {}) and start again",
      dir, lock_holder(dir), describe(alive), fmt::join(pids, " "))));
}

Result<UniqueFd> lock_one(const std::string& dir, const LockOptions& options, std::set<std::string>& ended_runs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  UniqueFd fd(open(lock_path(dir).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd.valid()) return fail(Error::at(lock_path(dir), 0, "", "cannot open the lock file: " + errno_text(errno)));
  if (flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return fail(Error::at(lock_path(dir), 0, "", "cannot lock: " + errno_text(errno)));
    if (!options.wait) return fail(Error::plain(in_use(dir) + "; without --no-wait this run would wait for it"));
    if (options.waiting) options.waiting(in_use(dir) + "; waiting for it to finish (--no-wait: give up at once)");
    int locked = flock(fd.get(), LOCK_EX);
    while (locked != 0 && errno == EINTR) locked = flock(fd.get(), LOCK_EX);
    if (locked != 0) return fail(Error::at(lock_path(dir), 0, "", "cannot lock: " + errno_text(errno)));
  }
  TRY(refuse_leftovers(dir, ended_runs));
  write_holder(fd.get());
  return fd;
}

}  // namespace

std::string lock_holder(const std::string& dir) {
  std::ifstream in(lock_path(dir));
  std::string line;
  std::getline(in, line);
  return line;
}

Result<OutputLocks> lock_output_dirs(std::vector<std::string> dirs, const LockOptions& options) {
  for (auto& dir : dirs) {
    fs::path path = fs::path(dir).lexically_normal();
    dir = (path.has_filename() ? path : path.parent_path()).string();  // "a/." and "a" are one directory
  }
  std::sort(dirs.begin(), dirs.end());  // one order for every run: no deadlock between two suites
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());  // a second flock of one file would wait on itself
  std::vector<UniqueFd> fds;
  std::set<std::string> ended_runs;
  for (const auto& dir : dirs) {
    auto fd = TRY(lock_one(dir, options, ended_runs));
    fds.push_back(std::move(fd));
  }
  return OutputLocks(std::move(fds));
}

}  // namespace tipc::run
