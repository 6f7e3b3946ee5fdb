#pragma once
// SIGINT/SIGTERM (stop the run) and SIGCHLD (a child ended) turned into bytes on a
// self-pipe, so the executor's poll() wakes for them.
namespace tipc::run {

class SignalWatch {
 public:
  // Installs the handlers once per process; later calls return the same watch.
  static SignalWatch& install();

  int wake_fd() const;       // readable when a signal arrived
  void drain() const;        // empties the self-pipe
  bool interrupted() const;  // SIGINT or SIGTERM seen
  int interrupts() const;    // how many so far

  // Test hook: behave as if SIGINT had arrived.
  void simulate_interrupt() const;

 private:
  SignalWatch() = default;
};

}  // namespace tipc::run
