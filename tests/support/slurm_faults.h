#pragma once
// Faults for the tests of --executor slurm on a cluster of scripts/slurm-local.sh: a node
// that stops as a powered-off machine would (its slurmd, its job step daemons and their
// tasks killed at once), the node started again, and slurmctld stopped and started again.
// Every process is found through the cluster's own directory, never by name alone, so that
// other clusters on the machine are left alone.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/run_binary.h"

namespace tipc::test {

namespace slurm_faults_detail {
namespace fs = std::filesystem;

inline pid_t pid_in(const fs::path& pid_file) {
  const std::string text = slurp(pid_file.string());
  return text.empty() ? 0 : static_cast<pid_t>(std::atol(text.c_str()));
}

// The processes whose parent is `parent` (from /proc/PID/stat's fourth field).
inline std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp((entry.path() / "stat").string());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent) {
      children.push_back(static_cast<pid_t>(std::atol(name.c_str())));
    }
  }
  return children;
}

// slurmstepd processes that hold `log` open: the job steps of the node that logs there.
inline std::vector<pid_t> step_daemons_logging_to(const fs::path& log) {
  std::vector<pid_t> steps;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    if (slurp((entry.path() / "comm").string()) != "slurmstepd\n") continue;
    std::error_code ec;
    for (const auto& fd : fs::directory_iterator(entry.path() / "fd", ec)) {
      if (fs::read_symlink(fd.path(), ec) == log) {
        steps.push_back(static_cast<pid_t>(std::atol(entry.path().filename().c_str())));
        break;
      }
    }
  }
  return steps;
}

}  // namespace slurm_faults_detail

// The directory of the cluster the tests talk to (SLURM_CONF, which LocalSlurm::start sets).
inline std::filesystem::path slurm_cluster_dir() {
  const char* conf = std::getenv("SLURM_CONF");
  return conf ? std::filesystem::path(conf).parent_path() : std::filesystem::path();
}

// A node's file named `stem`-NODE.`extension` in a multi-node cluster, `stem`.`extension`
// in a one-node one.
inline std::filesystem::path node_file(const std::filesystem::path& folder, const std::string& stem,
                                       const std::string& node, const std::string& extension) {
  const auto own = folder / (stem + "-" + node + extension);
  return std::filesystem::exists(own) ? own : folder / (stem + extension);
}

// Stops `node` at once, as a machine that loses power: SIGKILL to its slurmd, its job step
// daemons and their tasks. Returns how many processes it killed.
inline int power_off_node(const std::string& node) {
  namespace detail = slurm_faults_detail;
  const auto dir = slurm_cluster_dir();
  std::vector<pid_t> victims;
  if (const pid_t slurmd = detail::pid_in(node_file(dir, "slurmd", node, ".pid"))) victims.push_back(slurmd);
  for (const pid_t step : detail::step_daemons_logging_to(node_file(dir / "log", "slurmd", node, ".log"))) {
    victims.push_back(step);
    for (std::size_t i = victims.size() - 1; i < victims.size(); ++i) {  // the step's tasks and theirs
      for (const pid_t child : detail::children_of(victims[i])) victims.push_back(child);
    }
  }
  for (const pid_t pid : victims) kill(pid, SIGKILL);
  return static_cast<int>(victims.size());
}

// Starts the slurmd of `node` again (Slurm returns it to service once it registers).
inline bool power_on_node(const std::string& node) {
  const auto conf = slurm_cluster_dir() / "slurm.conf";
  std::string command = "/usr/sbin/slurmd -f " + shell_quote(conf.string());
  command += " -N " + shell_quote(node);
  return std::system((command + " </dev/null >/dev/null 2>&1").c_str()) == 0;
}

// Sets the cluster's SlurmdTimeout (how long a node may not answer before Slurm declares it
// down and ends its jobs NODE_FAIL) and has slurmctld read it again; false when slurmctld
// does not say it has the new value within 10 s.
inline bool set_slurmd_timeout(int seconds) {
  const std::string conf = (slurm_cluster_dir() / "slurm.conf").string();
  const std::string edit =
      "sed -i 's/^SlurmdTimeout=.*/SlurmdTimeout=" + std::to_string(seconds) + "/' " + shell_quote(conf);
  if (std::system(edit.c_str()) != 0) return false;
  const std::string check = "scontrol show config | grep -Eq '^SlurmdTimeout += " + std::to_string(seconds) + " sec'";
  for (int i = 0; i < 20; ++i) {
    if (std::system("scontrol reconfigure >/dev/null 2>&1") == 0 && std::system(check.c_str()) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return false;
}

// Stops slurmctld (SIGTERM: it saves its state, as for a restart) and waits until it is
// gone, at most 30 s; false when it is not (a new one could not take its port).
inline bool stop_controller() {
  const pid_t pid = slurm_faults_detail::pid_in(slurm_cluster_dir() / "slurmctld.pid");
  if (pid <= 0 || kill(pid, SIGTERM) != 0) return false;
  for (int i = 0; i < 300 && kill(pid, 0) == 0; ++i) {
    if (slurp("/proc/" + std::to_string(pid) + "/stat").find(") Z") != std::string::npos) return true;  // a zombie
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return kill(pid, 0) != 0;
}

// The last 4 KiB of a log, for a failure's message.
inline std::string file_tail_of(const std::filesystem::path& log) {
  const std::string text = slurp(log.string());
  return text.size() > 4096 ? text.substr(text.size() - 4096) : text;
}

// Starts slurmctld again and waits until it answers (`scontrol ping`), at most 30 s: under
// load its start (reading the saved state) took longer than the 10 s a test then gave the
// queue to drain.
inline bool start_controller() {
  const auto conf = slurm_cluster_dir() / "slurm.conf";
  const std::string start = "/usr/sbin/slurmctld -f " + shell_quote(conf.string()) + " </dev/null >/dev/null 2>&1";
  if (std::system(start.c_str()) != 0) return false;
  for (int i = 0; i < 300; ++i) {
    if (std::system("scontrol ping >/dev/null 2>&1") == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace tipc::test
