#pragma once
// The executors a run may use (`--executor NAME`), each registered once by name, so that no
// caller switches on which one it is: the run phase asks the registered type what the run
// needs (this machine's GPUs, or what a cluster offers), how many stages go at once, and
// builds it. Adding an executor is its own files (an `Executor`, run/executor.h) plus its
// line in the table of executor_registry.cpp.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "run/executor.h"
#include "run/resources.h"
#include "run/slurm.h"

namespace tipc::run {

// Everything an executor may be built from: plain values from the command line and the
// settings (the run phase fills it).
struct ExecutorSettings {
  SlurmOptions slurm;           // partition, account, --cpus-per-task, srun's extra flags
  bool tipc_run_places = true;  // a cluster's stages placed on its nodes by tipc-run (else by the cluster)
  CommandRunner run;            // runs the helper commands (sinfo, squeue, scancel)
};

struct ExecutorType {
  std::string name;         // --executor NAME
  std::string description;  // for --help
  // True: stages run on this machine, and tipc-run allocates its GPUs (--gpus,
  // --resource-spec, CUDA_VISIBLE_DEVICES). False: the executor's cluster does, and
  // `capacity` says what it offers.
  bool uses_local_gpus = true;
  std::function<Result<ClusterCapacity>(const ExecutorSettings&)> capacity;
  // Stages in flight at once unless -j or the settings say (`cluster`: what `capacity` said).
  std::function<int(const ExecutorSettings&, const std::optional<ClusterCapacity>& cluster)> default_jobs;
  // The executor over `local`, the process executor that starts this machine's processes;
  // nullptr: `local` itself.
  std::function<std::unique_ptr<Executor>(Executor& local, const ExecutorSettings&,
                                          const std::optional<ClusterCapacity>& cluster)>
      make;
};

// Every registered executor, "local" first (the default).
const std::vector<ExecutorType>& executor_types();

// The type registered as `name`; nullptr for none.
const ExecutorType* find_executor_type(const std::string& name);

}  // namespace tipc::run
