#pragma once
// Processes that carry a run's id (run/run_marker), started by the tests themselves: what
// a run killed with SIGKILL leaves behind when nothing cleans up after it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "run/run_marker.h"

namespace tipc::test {

// Starts `argv` (looked up on PATH) in a process group of its own, with TIPC_RUN_ID=run_id
// added to this process's environment, and in the cgroup whose cgroup.procs is open as
// `cgroup_procs` (-1: none); returns its pid.
inline pid_t start_marked(const std::string& run_id, std::vector<std::string> argv, int cgroup_procs = -1) {
  std::vector<char*> words;
  for (auto& word : argv) words.push_back(word.data());
  words.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    if (cgroup_procs >= 0 && write(cgroup_procs, "0", 1) != 1) _exit(126);
    setenv(run::kRunIdVariable, run_id.c_str(), 1);
    execvp(words[0], words.data());
    _exit(127);
  }
  return pid;
}

// True while the process exists and has not ended (a zombie has ended).
inline bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

// Polls `done` every 10 ms for up to `limit`; its last answer.
template <class Condition>
bool within(std::chrono::milliseconds limit, Condition done) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// The pids in a file, one a line (tipc-fake-stage --children FILE).
inline std::vector<pid_t> pids_in_file(const std::string& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (pid_t pid; in >> pid;) pids.push_back(pid);
  return pids;
}

}  // namespace tipc::test
