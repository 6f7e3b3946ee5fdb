#pragma once
// The process boundary (ninja's CommandRunner): the scheduler hands launches to an
// Executor and waits for them to finish. The real one starts process groups; the
// fake one simulates time so the scheduler is tested in milliseconds.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "run/log_scanner.h"

namespace tipc::run {

using Clock = std::chrono::steady_clock;

// What a stage takes of the machines it runs on, for an executor that places stages itself.
struct Demand {
  int nodes = 1;
  int gpus = 0;            // per node
  int tasks_per_node = 1;  // its ranks on each node
  bool exclusive = false;  // its nodes whole (a benchmark)
};

struct Launch {
  std::string id;
  std::vector<std::string> argv;
  std::string cwd;                                        // absolute
  std::map<std::string, std::optional<std::string>> env;  // changes to the inherited environment; nullopt removes
  std::string log_path;                                   // absolute; stdout and stderr go here as they arrive
  bool append_log = false;  // appended to, not emptied first (SchedulerOptions::appended_logs)
  int processes = 1;        // >1: tipc-run's rank-env launcher starts that many ranks
  std::vector<LogPattern> checks;
  // The trainer's own log (absolute; a path or a glob), appended to log_path once the stage's
  // processes ended, its lines checked too (run/trainer_log.h); empty: none.
  std::string trainer_log;
  // For an executor that allocates the machines itself (Slurm); the local one has placed
  // the stage already (CUDA_VISIBLE_DEVICES in env) and ignores these.
  int gpus = 0;  // per node
  int nodes = 1;
  bool exclusive = false;  // a benchmark: alone on its machine
  double time_limit = 0;   // seconds; 0: none
  std::string hosts;       // plan::Stage::hosts
  // Lines the executor writes at the top of the log, each after "tipc-run: " (what the
  // scheduler saw on the stage's GPUs before it started).
  std::vector<std::string> notes;

  Demand demand() const { return {nodes, gpus, processes > 1 ? processes : 1, exclusive}; }
};

struct Finished {
  std::string id;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::vector<std::string> log_findings;
  std::string job_id;                     // the cluster's job id, when an executor submitted the stage as a job
  std::string nodes;                      // the cluster's nodes that ran that job, in Slurm's notation (n[1-2])
  std::optional<bool> trainer_log_found;  // with Launch::trainer_log: whether one was appended
  // With a trainer log: when the stage's processes had ended (the trainer log was appended
  // after); a deadline or an interrupt after this is not the stage's.
  std::optional<Clock::time_point> processes_ended;
  // Why the cluster, not the stage, ended it (its node failed; srun got no allocation): a
  // FAIL with this reason whatever the exit status; "" when it did not.
  std::string cluster_failure;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Starts the stage's process group; an error means it never ran.
  virtual Result<void> start(const Launch& launch) = 0;
  // Returns one finished stage, or nullopt once `until` has passed (or on an interrupt).
  virtual std::optional<Finished> wait(Clock::time_point until) = 0;
  // Sends a signal to every process of the stage.
  virtual void signal(const std::string& id, int signal) = 0;
  virtual Clock::time_point now() const = 0;
  virtual std::size_t running() const = 0;
  // Whether a stage of this demand could start now: an executor that places stages on a
  // cluster itself says no while its nodes are busy; the others always yes.
  virtual bool has_room_for(const Demand& /*demand*/) const { return true; }
  // The process group of a running stage, which tells its processes on a GPU from others';
  // nullopt when the executor does not know one.
  virtual std::optional<int> process_group(const std::string& /*id*/) const { return std::nullopt; }
  // When a running stage last wrote output (an idle timeout counts from it); nullopt: never
  // since it started, or not known.
  virtual std::optional<Clock::time_point> last_output(const std::string& /*id*/) const { return std::nullopt; }
  // Before a timed-out stage is stopped: the stacks of its processes into its log
  // (run/stack_dump.h). Returns at once where the executor cannot.
  virtual void dump_stacks(const std::string& /*id*/) {}
};

}  // namespace tipc::run
