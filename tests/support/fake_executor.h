#pragma once
// A simulated executor with a virtual clock, for scheduler tests (only the tests use it, so
// it lives here and not in src/run): each stage id has
// a script (duration, exit, behaviour on SIGTERM), and every start is recorded.
#include <csignal>
#include <functional>

#include "run/executor.h"

namespace tipc::run {

class FakeExecutor : public Executor {
 public:
  struct Script {
    double seconds = 1.0;
    int exit_code = 0;
    // The exit codes of its first starts, in order (a retried stage); later starts exit with exit_code.
    std::vector<int> first_exit_codes;
    std::optional<int> signal;  // dies by this signal at the end
    bool ignores_sigterm = false;
    std::string launch_error;  // start() fails
    int cwd_error = 0;         // start() fails to enter the launch's cwd, with this errno (ENOENT: missing)
    std::vector<std::string> log_findings;
    // With a trainer log: how long appending it takes after the processes ended (within
    // `seconds`); signals in that time reach no process.
    double appending_seconds = 0;
    // Prints nothing after this many seconds (an idle timeout's hang); < 0: prints throughout.
    double silent_after = -1;
  };
  struct Record {
    std::string id;
    double start = 0;
    double end = -1;
    std::map<std::string, std::optional<std::string>> env;
    std::vector<int> signals;
    Launch launch;               // as given
    bool stacks_dumped = false;  // dump_stacks was called while it ran
  };

  std::map<std::string, Script> scripts;  // by stage id; missing ids use default_script
  Script default_script;
  std::vector<Record> records;  // in start order
  // Whether there is room for a stage now, as an executor that places stages says
  // (Executor::has_room_for); unset: always.
  std::function<bool(const Demand&)> room;

  Result<void> start(const Launch& launch) override;
  std::optional<Finished> wait(Clock::time_point until) override;
  void signal(const std::string& id, int signal) override;
  Clock::time_point now() const override { return epoch_ + to_duration(now_); }
  std::size_t running() const override { return running_.size(); }
  bool has_room_for(const Demand& demand) const override { return !room || room(demand); }
  // Each start's group is 1000 + its place in `records`.
  std::optional<int> process_group(const std::string& id) const override;
  std::optional<Clock::time_point> last_output(const std::string& id) const override;
  void dump_stacks(const std::string& id) override;

  double seconds_now() const { return now_; }
  // Sets an interrupt flag at this virtual time (simulated Ctrl-C).
  double interrupt_at = -1;
  bool interrupt_fired() const { return interrupt_fired_; }

 private:
  struct Running {
    std::size_t record;
    double end;
    std::optional<int> signal;
    int exit_code;
    double appending = 0;  // the last seconds before `end`: the trainer log's append
  };
  static Clock::duration to_duration(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }
  Clock::time_point epoch_ = Clock::time_point{} + std::chrono::hours(1);
  double now_ = 0;
  bool interrupt_fired_ = false;
  std::map<std::string, Running> running_;
  std::map<std::string, std::size_t> starts_;  // by stage id
};

}  // namespace tipc::run
