// tipc-fake-stage: a stand-in for a training or inference script, driven by flags,
// so the executor and the scheduler can be tested against real processes.
//   --record FILE          append one line: pid pgid start end cvd rank world_size cwd
//   --record-node FILE     append one line: the Slurm node it ran on (SLURMD_NODENAME), its
//                          index in the job (SLURM_NODEID), the host name ("-" where unset)
//   --sleep S              sleep S seconds (fractions allowed)
//   --print TEXT           print a line to stdout;  --stderr TEXT: to stderr
//   --print-mb N           print N MiB of text to stdout
//   --exit N               exit with N;  --signal N: die by signal N at the end
//   --ignore-term          ignore SIGTERM
//   --fork-ignoring-term N fork N children that ignore SIGTERM and sleep 300 s
//   --fork-closing-stdout  fork a child that closes stdout/stderr and sleeps 300 s
//   --close-stdout         close its own stdout and stderr (and go on with the next flags)
//   --barrier DIR N        leave a file in DIR, then wait until DIR holds N files (exit 1
//                          after 120 s): proves that N stages ran at the same time
//   --setsid-child         fork a child that leaves the process group (setsid) and sleeps 300 s
//   --children FILE        append the pids of forked children to FILE
//   --write FILE           create FILE containing "ok"
//   --read-stdin           read stdin and print how many bytes it gave
//   --fail-if-missing FILE exit 1 unless FILE exists
// Words with '=' or without a leading -- (what a runner passes) are echoed and ignored.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void sleep_for(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

void append_line(const std::string& file, const std::string& line) {
  std::ofstream(file, std::ios::app) << line << '\n';
}

// --record-node's line: where in a Slurm job this process runs.
std::string node_line() {
  char host[256] = "-";
  if (gethostname(host, sizeof host) != 0) std::strcpy(host, "-");
  host[sizeof host - 1] = '\0';
  return std::string(env_or("SLURMD_NODENAME", "-")) + " " + env_or("SLURM_NODEID", "-") + " " + host;
}

pid_t fork_child(const std::string& children_file, void (*body)()) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  if (!children_file.empty()) append_line(children_file, std::to_string(pid));
  return pid;
}

// True once `dir` holds `count` entries, false after two minutes of waiting.
bool barrier(const std::string& dir, long count) {
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/" + std::to_string(getpid())) << "here\n";
  for (int tick = 0; tick < 120 * 20; ++tick) {
    long entries = 0;
    if (DIR* d = opendir(dir.c_str())) {
      while (const dirent* e = readdir(d)) entries += e->d_name[0] != '.';
      closedir(d);
    }
    if (entries >= count) return true;
    sleep_for(0.05);
  }
  return false;
}

void ignore_term_and_wait() {
  signal(SIGTERM, SIG_IGN);
  sleep_for(300);
}

void close_output_and_wait() {
  close(STDOUT_FILENO);
  close(STDERR_FILENO);
  sleep_for(300);
}

void leave_group_and_wait() {
  setsid();
  close(STDOUT_FILENO);
  close(STDERR_FILENO);
  sleep_for(300);
}

}  // namespace

int main(int argc, char** argv) {
  const double start = now_seconds();
  std::string record, children;
  int exit_code = 0, die_by = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (flag == "--record")
      record = argv[++i];
    else if (flag == "--children")
      children = argv[++i];
    else if (flag == "--sleep")
      sleep_for(std::atof(argv[++i]));
    else if (flag == "--print")
      std::printf("%s\n", argv[++i]);
    else if (flag == "--stderr")
      std::fprintf(stderr, "%s\n", argv[++i]);
    else if (flag == "--exit")
      exit_code = std::atoi(argv[++i]);
    else if (flag == "--signal")
      die_by = std::atoi(argv[++i]);
    else if (flag == "--ignore-term")
      signal(SIGTERM, SIG_IGN);
    else if (flag == "--write")
      std::ofstream(argv[++i]) << "ok\n";
    else if (flag == "--record-node")
      append_line(argv[++i], node_line());
    else if (flag == "--fail-if-missing") {
      if (access(argv[++i], F_OK) != 0) exit_code = 1;
    } else if (flag == "--print-mb") {
      const long mib = std::atol(argv[++i]);
      std::string line(1023, 'x');
      line += '\n';
      for (long k = 0; k < mib * 1024; ++k) std::fwrite(line.data(), 1, line.size(), stdout);
    } else if (flag == "--fork-ignoring-term") {
      for (int n = std::atoi(argv[++i]); n > 0; --n) fork_child(children, ignore_term_and_wait);
    } else if (flag == "--fork-closing-stdout") {
      fork_child(children, close_output_and_wait);
    } else if (flag == "--barrier") {
      const std::string dir = argv[++i];
      if (!barrier(dir, std::atol(argv[++i]))) {
        std::fprintf(stderr, "fake_stage: barrier %s not reached\n", dir.c_str());
        exit_code = 1;
      }
    } else if (flag == "--close-stdout") {
      close(STDOUT_FILENO);
      close(STDERR_FILENO);
    } else if (flag == "--setsid-child") {
      fork_child(children, leave_group_and_wait);
    } else if (flag == "--read-stdin") {
      char buffer[64];
      std::printf("stdin gave %zd bytes\n", read(STDIN_FILENO, buffer, sizeof buffer));
    } else if (flag.find('=') != std::string::npos || flag.rfind("--", 0) != 0) {
      std::printf("arg %s\n", flag.c_str());  // what the runner passes (key=value, scripts): echoed, not interpreted
    } else {
      std::fprintf(stderr, "fake_stage: unknown flag %s (next %s)\n", flag.c_str(), value);
      return 64;
    }
    std::fflush(stdout);
  }
  if (!record.empty()) {
    char cwd[4096] = "?";
    if (!getcwd(cwd, sizeof cwd)) std::strcpy(cwd, "?");
    append_line(record, std::to_string(getpid()) + " " + std::to_string(getpgrp()) + " " + std::to_string(start) + " " +
                            std::to_string(now_seconds()) + " " + env_or("CUDA_VISIBLE_DEVICES", "unset") + " " +
                            env_or("RANK", "-") + " " + env_or("WORLD_SIZE", "-") + " " + cwd);
  }
  std::fflush(stdout);
  if (die_by) raise(die_by);
  return exit_code;
}
