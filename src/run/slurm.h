#pragma once
// The Slurm executor (docs/slurm.md): every stage runs as a job step that `srun` asks
// Slurm for, so the cluster allocates GPUs (--gres, CUDA_VISIBLE_DEVICES), machines
// (--nodes) and time (--time), and tipc-run keeps its own scheduler for dependencies,
// timeouts, log checks and reports. `srun` itself runs locally under the local executor,
// so its output lands in the usual stage log as it arrives, and stopping it stops the step.
// Each job gets a name unique to the run; `scancel --name` cancels it (also while it
// waits for resources) and `squeue --name` finds its job id for the reports.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/command.h"
#include "core/error.h"
#include "run/cluster_placement.h"
#include "run/executor.h"
#include "run/resources.h"

namespace tipc::run {

struct SlurmOptions {
  std::optional<std::string> partition;
  std::optional<std::string> account;
  std::optional<int> cpus_per_task;
  std::vector<std::string> srun_args;  // extra srun flags, as given
};

// Runs a helper command (sinfo, squeue, scancel); a fake in tests.
using CommandRunner = std::function<CommandOutcome(const std::vector<std::string>&)>;

// The local launch that runs `launch` as a Slurm job step named `job_name`: srun with
// the stage's needs, the stage's own command after it. Variables named SLURM_* that
// tipc-run inherited (it may itself run inside a job) are removed, so that every stage
// is a job of its own; SLURM_CONF is kept.
// With a placement, the job is pinned to its nodes (--nodelist).
Launch slurm_launch(const Launch& launch, const SlurmOptions& options, const std::string& job_name,
                    const std::vector<std::string>& inherited_slurm_variables, const Placement& placement = {});

// The nodes `sinfo --Node --format=%N|%T|%E` lists as down, failing, drained or not responding.
std::set<std::string> unavailable_nodes(const std::string& listing);

// The SLURM_* variables of this process's environment, SLURM_CONF excepted.
std::vector<std::string> inherited_slurm_variables();

// What `sinfo --noheader --Node --format=%N|%c|%G` lists: nodes (each once), their CPUs
// together and the most GPUs one of them has.
Result<ClusterCapacity> parse_sinfo_nodes(const std::string& listing, const std::string& source);

// What Slurm says of a stage's job once its srun has ended: the first line of
// `squeue --noheader --states=all --name=NAME --format=%i|%T|%N` (id, state, nodes).
struct SlurmJob {
  std::string id;
  std::string state;  // PENDING, RUNNING, COMPLETED, NODE_FAIL, ...
  std::string nodes;  // a hostlist: "n1", "n[1-2]"; "" before it had any
};
std::optional<SlurmJob> parse_squeue_job(const std::string& listing);

// Whether Slurm still holds the job (its srun ended): it is cancelled, so that none is left.
bool job_is_active(const std::string& state);

// Why a job's end is the cluster's doing and not the stage's (its node failed, Slurm
// preempted it or ran it out of time or memory), naming the job's nodes and, from
// `down_nodes` (`sinfo --Node --format=%N|%T|%E` of them), those that are down and why;
// "" when the job ended as its step did.
std::string cluster_failure(const SlurmJob& job, const std::string& down_nodes);

// srun's own "Unable to allocate resources" line in a stage log (the job was never
// allocated: the controller could not be reached, the request was refused); "" when none.
std::string srun_allocation_error(const std::string& log_tail);

// Asks the cluster (sinfo) what it offers, in the partition when one is set.
Result<ClusterCapacity> query_slurm_cluster(const SlurmOptions& options, const CommandRunner& run);

class SlurmExecutor : public Executor {
 public:
  // `local` runs the srun processes; `run` the helper commands. With `place_on` (the
  // cluster's nodes), tipc-run places the stages itself (run/cluster_placement.h): each job
  // is pinned to nodes it fits now, and the scheduler holds a stage back while none do.
  SlurmExecutor(Executor& local, SlurmOptions options, CommandRunner run, std::vector<ClusterNode> place_on = {});
  ~SlurmExecutor() override;  // cancels the jobs of stages still running
  SlurmExecutor(const SlurmExecutor&) = delete;
  SlurmExecutor& operator=(const SlurmExecutor&) = delete;

  Result<void> start(const Launch& launch) override;
  std::optional<Finished> wait(Clock::time_point until) override;
  // Signals srun (it forwards the signal to the step) and cancels the job in Slurm:
  // SIGTERM cancels it (Slurm's own TERM, then KILL after KillWait), SIGKILL kills it.
  void signal(const std::string& id, int signal) override;
  Clock::time_point now() const override { return local_.now(); }
  std::size_t running() const override { return local_.running(); }
  bool has_room_for(const Demand& demand) const override;
  // srun passes the job's output on as it comes: the stage's silence is srun's.
  std::optional<Clock::time_point> last_output(const std::string& id) const override { return local_.last_output(id); }

 private:
  struct Submitted;
  // What Slurm says of the job whose srun ended: its id, and why it failed where the
  // cluster failed it; a job Slurm still holds is cancelled.
  void account_for_job(const Submitted& job, Finished& finished) const;
  // The nodes a job was given: squeue lists only the nodes still completing for a COMPLETING
  // job, so the nodes seen while it ran, or those it was pinned to, name it instead.
  std::string allocated_nodes(const Submitted& job, const std::string& listed) const;
  // Every kJobPoll while stages run: one squeue of their jobs; the srun of a job that
  // Slurm has ended itself (NODE_FAIL...) is killed, for an srun that lost its step with its
  // node may wait minutes more on it.
  void stop_sruns_of_ended_jobs();
  // Asks Slurm which nodes are down or drained, so that no stage is placed there.
  void refresh_node_states();
  // A job waiting for a node that went down would wait forever: cancelled, with the reason.
  void cancel_if_pinned_to_unavailable_node(Submitted& job);

  Executor& local_;
  SlurmOptions options_;
  CommandRunner run_;
  std::vector<std::string> inherited_;
  struct Submitted {
    std::string job_name;
    std::string log_path;
    Placement placement;              // empty: Slurm placed it
    std::string cancelled_because;    // why tipc-run cancelled it ("" when it did not)
    std::string nodes_while_running;  // squeue's %N at a poll that found it RUNNING
  };
  std::map<std::string, Submitted> submitted_jobs_;  // launch id -> its job, while it runs
  static constexpr Clock::duration kJobPoll = std::chrono::seconds(5);
  Clock::time_point next_poll_{};
  std::size_t submitted_ = 0;
  std::optional<ClusterPlacement> placement_;
};

}  // namespace tipc::run
