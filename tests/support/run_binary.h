#pragma once
// Runs tipc-run as a user would, capturing exit code, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the binary in `cwd` with the given arguments, and `env` (NAME=VALUE words) added to
// its environment.
inline RunResult run_tipc(const std::string& cwd, const std::vector<std::string>& args,
                          const std::vector<std::string>& env = {}) {
  static TempDir capture;
  std::string command = "cd " + shell_quote(cwd) + " &&";
  if (!env.empty()) command += " env";
  for (const auto& assignment : env) command += " " + shell_quote(assignment);
  command += " " + shell_quote(tipc_run_binary());
  for (const auto& a : args) command += " " + shell_quote(a);
  const std::string out = (capture.path() / "out").string(), err = (capture.path() / "err").string();
  command += " >" + shell_quote(out) + " 2>" + shell_quote(err) + " </dev/null";
  const int status = std::system(command.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Starts the binary in `cwd` in the background, stdout to /dev/null; returns its pid, for
// tests that signal it or measure it with wait4.
inline pid_t start_tipc(const std::string& cwd, const std::vector<std::string>& args) {
  std::vector<std::string> words{"tipc-run"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const std::string binary = tipc_run_binary();
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0 || !freopen("/dev/null", "w", stdout)) _exit(126);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

}  // namespace tipc::test
