#include "run/run_marker.h"
#include "core/text.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>

#include <fmt/format.h>

namespace tipc::run {
namespace {

constexpr std::size_t kCommandWidth = 120;

// Field 22 of /proc/self/stat, counted after the command name (which may hold spaces).
std::string own_start_time() {
  const std::string stat = read_whole_file("/proc/self/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  return field;
}

std::string command_of(const std::string& pid) {
  std::string text = read_whole_file("/proc/" + pid + "/cmdline");
  while (!text.empty() && text.back() == '\0') text.pop_back();
  std::replace(text.begin(), text.end(), '\0', ' ');
  if (text.size() > kCommandWidth) text = text.substr(0, kCommandWidth - 3) + "...";
  return text;
}

}  // namespace

std::string read_whole_file(const std::string& path) {
  std::string text;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[16 << 10];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  return text;
}

const std::string& this_run_id() {
  static const std::string id = [] {
    std::uint32_t random = 0;
    if (getrandom(&random, sizeof random, 0) != sizeof random) random = 0;
    return fmt::format("{}-{}-{:08x}", getpid(), own_start_time(), random);
  }();
  return id;
}

std::vector<RunProcess> processes_of_run(const std::string& run_id) {
  std::vector<RunProcess> found;
  DIR* proc = opendir("/proc");
  if (!proc) return found;
  const std::string marker = std::string(kRunIdVariable) + "=" + run_id;
  const std::string self = std::to_string(getpid());
  while (const dirent* entry = readdir(proc)) {
    if (!all_digits(entry->d_name) || entry->d_name == self) continue;
    const std::string environment = read_whole_file(fmt::format("/proc/{}/environ", entry->d_name));
    // NAME=VALUE entries, each ended by '\0': a whole entry matches, not a prefix of a longer id.
    for (std::size_t at = 0; at < environment.size();) {
      const std::size_t end = std::min(environment.find('\0', at), environment.size());
      if (std::string_view(environment).substr(at, end - at) == marker) {
        found.push_back({static_cast<pid_t>(std::stol(entry->d_name)), command_of(entry->d_name)});
        break;
      }
      at = end + 1;
    }
  }
  closedir(proc);
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.pid < b.pid; });
  return found;
}

std::string describe(const std::vector<RunProcess>& processes) {
  std::vector<std::string> parts;
  for (const auto& process : processes) parts.push_back(fmt::format("{} ({})", process.pid, process.command));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace tipc::run
