#include "run/signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace tipc::run {
namespace {

volatile sig_atomic_t g_interrupts = 0;
int g_pipe[2] = {-1, -1};

void on_signal(int signal) {
  const int saved = errno;
  if (signal == SIGINT || signal == SIGTERM) g_interrupts = g_interrupts + 1;
  const char byte = 1;
  [[maybe_unused]] const auto n = write(g_pipe[1], &byte, 1);  // non-blocking: a full pipe already wakes poll()
  errno = saved;
}

}  // namespace

SignalWatch& SignalWatch::install() {
  static SignalWatch watch;
  static bool installed = false;
  if (!installed) {
    installed = true;
    if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &action, nullptr);
  }
  return watch;
}

int SignalWatch::wake_fd() const { return g_pipe[0]; }

void SignalWatch::drain() const {
  char buffer[256];
  while (read(g_pipe[0], buffer, sizeof buffer) > 0) {
  }
}

bool SignalWatch::interrupted() const { return g_interrupts > 0; }
int SignalWatch::interrupts() const { return g_interrupts; }
void SignalWatch::simulate_interrupt() const { on_signal(SIGINT); }

}  // namespace tipc::run
