#pragma once
// What the scheduler asks the driver about the GPUs around each stage (issue 40): the
// processes on a GPU before a stage starts there (those this run did not start are named),
// readings while it runs (GpuFigures), and after it ended whether the memory its processes
// held is free again, so that the next stage is not handed a GPU the driver still fills.
//
// A stage's leftovers on a GPU are the processes there now that were not there before it
// started and that are either gone from /proc (the driver still holds a dead process's
// memory) or still in the stage's process group. In a container whose pid namespace is not
// the driver's, the driver's pids are not in /proc: a process that came during the stage then
// counts as a leftover until the wait's bound.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/gpu_driver.h"
#include "run/resources.h"

namespace tipc::run {

// A pid on this machine, as /proc tells it.
struct ProcessFacts {
  int group = 0;
  std::string command;  // its command line, spaces between the arguments, bounded
  bool zombie = false;
};
using ProcessLookup = std::function<std::optional<ProcessFacts>(int pid)>;
std::optional<ProcessFacts> read_process_facts(int pid);

struct GpuWatchOptions {
  double release_wait = 30;  // seconds (settings' gpus: release_wait)
  bool exclusive = false;    // a foreign process on a stage's GPU fails the stage
  double sample_every = 1;   // seconds between readings of a running stage's GPUs
};

class GpuWatch {
 public:
  GpuWatch(GpuDriver& driver, const ResourceSpec& gpus, GpuWatchOptions options,
           ProcessLookup lookup = read_process_facts);
  const GpuWatchOptions& options() const { return options_; }

  // Before `stage` starts on `gpus` (ResourceSpec ids): remembers what is there, and returns a
  // line for each process there whose group is none of `our_groups` (the running stages').
  std::vector<std::string> before_start(const std::string& stage, const std::vector<std::string>& gpus,
                                        const std::set<int>& our_groups);
  // One reading of each of the GPUs into `figures`.
  void sample(const std::vector<std::string>& gpus, GpuFigures& figures);
  // What of `stage` (its process group `group`) still holds memory on `gpu`; empty: released.
  std::vector<GpuProcess> leftovers(const std::string& stage, const std::string& gpu, std::optional<int> group);
  // `gpu` is handed on with these leftovers of a stage still there: not foreign to the next one.
  void hand_on_with(const std::string& gpu, const std::vector<GpuProcess>& leftovers);
  // The stage's GPUs are all released: what was remembered of it is dropped.
  void forget(const std::string& stage) { before_.erase(stage); }

 private:
  std::optional<std::string> uuid_of(const std::string& gpu) const;

  GpuDriver& driver_;
  std::map<std::string, std::string> uuids_;  // ResourceSpec id -> the driver's UUID
  GpuWatchOptions options_;
  ProcessLookup lookup_;
  std::map<std::string, std::map<std::string, std::set<int>>> before_;  // stage -> GPU -> pids there before it
  std::map<std::string, std::set<int>> handed_on_;                      // GPU -> leftovers of this run's stages
};

// "pid 4242 (2048 MiB), pid 4243 (512 MiB)".
std::string describe_processes(const std::vector<GpuProcess>& processes);

// What a stage's log says when it starts on memory not yet freed: "memory of WHOSE still held
// after S s (pid 4242 (2048 MiB)); started anyway".
std::string held_after_wait(const std::string& whose, double seconds, const std::vector<GpuProcess>& leftovers);

}  // namespace tipc::run
