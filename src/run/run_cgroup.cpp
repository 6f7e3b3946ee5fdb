#include "run/run_cgroup.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>
#include <vector>

#include "run/run_marker.h"

namespace tipc::run {
namespace {

constexpr int kKillRounds = 200;  // with the pause below: gives up after about 2 s
constexpr long kBetweenKillsNs = 10'000'000;

// Where cgroup v2 is mounted, and which directory of the hierarchy the mount shows.
struct Cgroup2Mount {
  std::string point;
  std::string root;
};

std::optional<Cgroup2Mount> cgroup2_mount() {
  std::istringstream lines(read_whole_file("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos || !line.substr(dash + 3).starts_with("cgroup2 ")) continue;
    std::istringstream fields(line.substr(0, dash));
    std::string id, parent, device;
    Cgroup2Mount mount;
    if (fields >> id >> parent >> device >> mount.root >> mount.point) return mount;
  }
  return std::nullopt;
}

// The directory of this process's own cgroup v2 ("0::/path" in /proc/self/cgroup); "" when
// there is none or its mount does not show it.
std::string own_cgroup_dir() {
  const auto mount = cgroup2_mount();
  std::istringstream lines(read_whole_file("/proc/self/cgroup"));
  for (std::string line; mount && std::getline(lines, line);) {
    if (!line.starts_with("0::")) continue;
    const std::string path = line.substr(3);
    if (mount->root != "/" && !path.starts_with(mount->root)) return "";
    const std::string below = mount->root == "/" ? path : path.substr(mount->root.size());
    return std::filesystem::path(mount->point + "/" + below).lexically_normal().string();
  }
  return "";
}

bool populated(const std::string& path) {
  return read_whole_file(path + "/cgroup.procs").find_first_not_of(" \n") != std::string::npos;
}

// For kernels without cgroup.kill: each process listed, as often as the list is not empty.
void kill_listed(const std::string& path) {
  const std::string pids = read_whole_file(path + "/cgroup.procs");
  for (const char* at = pids.c_str(); *at != '\0';) {
    char* end = nullptr;
    const long pid = std::strtol(at, &end, 10);
    if (end == at) break;
    if (pid > 0) kill(static_cast<pid_t>(pid), SIGKILL);
    at = end;
  }
}

}  // namespace

RunCgroup::RunCgroup(const std::string& run_id) {
  const std::string own = own_cgroup_dir();
  if (own.empty()) return;
  const std::string path = own + "/tipc-run-" + run_id;
  if (mkdir(path.c_str(), 0755) != 0) return;
  procs_ = UniqueFd(open((path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
  if (!procs_.valid()) {
    rmdir(path.c_str());
    return;
  }
  path_ = path;
}

// Whatever the executor's own cleanup missed (a descendant re-parented to tipc-run after
// its last look) is killed here.
RunCgroup::~RunCgroup() { kill_cgroup(path_); }

// rmdir fails (EBUSY) while a process is in the cgroup, also one that is still exiting.
void kill_cgroup(const std::string& path) {
  if (path.empty()) return;
  const UniqueFd kill_file(open((path + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC));
  for (int round = 0; round < kKillRounds; ++round) {
    if (rmdir(path.c_str()) == 0 || errno == ENOENT) return;
    if (populated(path) && (!kill_file.valid() || write(kill_file.get(), "1", 1) != 1)) kill_listed(path);
    const timespec pause{0, kBetweenKillsNs};
    nanosleep(&pause, nullptr);
  }
}

}  // namespace tipc::run
