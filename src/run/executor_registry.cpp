#include "run/executor_registry.h"

#include <algorithm>
#include <thread>

namespace tipc::run {
namespace {

int one_per_core(const ExecutorSettings&, const std::optional<ClusterCapacity>&) {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ExecutorType local_executor() {
  return {"local",
          "the stages run as processes of this machine, on the GPUs tipc-run is given",
          true,
          nullptr,
          one_per_core,
          [](Executor&, const ExecutorSettings&, const std::optional<ClusterCapacity>&) {
            return std::unique_ptr<Executor>();
          }};
}

// Each stage is an srun that runs a job or waits for one: as many as the cluster's CPUs hold
// (one task per stage, --cpus-per-task each), at most 256. A job that waits in Slurm's queue
// starts at Slurm's next scheduling pass, about a second after its slot freed, where tipc-run
// submits the next stage at once (bench/RESULTS.md: 100 configs, 135 s with two more in
// flight, 55 s without).
int sruns_in_flight(const ExecutorSettings& settings, const std::optional<ClusterCapacity>& cluster) {
  constexpr int kMostSrunsInFlight = 256;
  if (!cluster) return one_per_core(settings, cluster);
  const int per_stage = std::max(1, settings.slurm.cpus_per_task.value_or(1));
  return std::clamp(cluster->cpus / per_stage, 1, kMostSrunsInFlight);
}

std::unique_ptr<Executor> make_slurm_executor(Executor& local, const ExecutorSettings& settings,
                                              const std::optional<ClusterCapacity>& cluster) {
  std::vector<ClusterNode> place_on;
  if (settings.tipc_run_places && cluster) place_on = cluster->each_node;
  return std::make_unique<SlurmExecutor>(local, settings.slurm, settings.run, std::move(place_on));
}

ExecutorType slurm_executor() {
  return {"slurm",
          "every stage is a Slurm job step (srun); the cluster allocates GPUs and nodes (docs/slurm.md)",
          false,
          [](const ExecutorSettings& settings) { return query_slurm_cluster(settings.slurm, settings.run); },
          sruns_in_flight,
          make_slurm_executor};
}

}  // namespace

const std::vector<ExecutorType>& executor_types() {
  // The registration table: one line per executor.
  static const std::vector<ExecutorType> types = {
      local_executor(),
      slurm_executor(),
  };
  return types;
}

const ExecutorType* find_executor_type(const std::string& name) {
  const auto& types = executor_types();
  const auto found =
      std::find_if(types.begin(), types.end(), [&](const ExecutorType& type) { return type.name == name; });
  return found == types.end() ? nullptr : &*found;
}

}  // namespace tipc::run
