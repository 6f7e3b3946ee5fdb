#pragma once
// Runs the stages of one or more plans on the given resources: dependency order,
// critical path first, all-or-nothing GPU allocation with backfilling, -j, timeouts that escalate from
// SIGTERM to SIGKILL, benchmark stages alone, services that serve their dependents (started
// first, ready before a client starts, stopped after the last one), and a clean stop on interrupt.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "run/events.h"
#include "run/executor.h"
#include "run/gpu_watch.h"
#include "run/resources.h"

namespace tipc::run {

struct Timeouts {
  std::map<plan::StageKind, double> by_kind;  // seconds; missing or 0: none
  std::optional<double> all;                  // --timeout: every stage
  double grace = 5;                           // SIGTERM -> SIGKILL
  double idle = 0;                            // no output for this long is a TIMEOUT too; 0: none
  double for_kind(plan::StageKind kind) const;
};

struct SchedulerOptions {
  int jobs = 1;
  // --retries: a stage that FAILs or TIMES OUT runs again, at once and on the same GPUs, up to
  // this many more times; one that passes then is FLAKY. Services and UNRESOLVED stages are not.
  int retries = 0;
  // --fail-fast: after the first failure (FAIL, TIMEOUT, UNRESOLVED) no stage starts; the
  // running ones finish (and a service serves them until they have), the rest are SKIPPED.
  bool fail_fast = false;
  ResourceSpec resources;
  Timeouts timeouts;
  std::string repo_root;  // absolute; stage cwd and log paths are relative to it (and the plan's run dir)
  // The kinds of stage whose logs are appended to instead of truncated: the reference
  // runner's train logs (its `cat >>`), the prepare scripts' one log.
  std::set<plan::StageKind> appended_logs;
  // Start multi-node launcher commands on this machine, as the reference runner does.
  bool multi_node_here = false;
  // Log checks per stage (traceback, nan loss, project patterns).
  std::function<std::vector<LogPattern>(const plan::Stage&)> checks;
  // Stages already PASSed in an earlier run (--resume), keyed by stage_key().
  std::set<std::string> resumed;
  // Seconds each stage took in the previous run, keyed by stage_key(): the estimates
  // behind the critical-path start order (run/priority.h).
  std::map<std::string, double> history;
  // Set when the executor's cluster allocates GPUs and machines (--executor slurm): no
  // local GPU allocation, stages are checked against the cluster's capacity, and a
  // benchmark stage asks for a machine of its own instead of draining the run.
  std::optional<ClusterCapacity> cluster;
  // Whether a running service stage is ready for its clients (run/service_probe.h when
  // unset); polled every 50 ms until it is.
  std::function<bool(const plan::Service&, const std::string& log_path)> ready_probe;
  // The driver's view of the local GPUs (run/gpu_watch.h); nullptr: no driver, GPUs are
  // handed on as soon as a stage ends and no figures are taken.
  GpuWatch* gpu_watch = nullptr;
};

// A stage's identity across a suite: "<config path>#<stage id>".
std::string stage_key(const plan::Plan& plan, const plan::Stage& stage);

// Where a stage runs and writes its log, as absolute paths: its cwd is relative to the
// repository root, its log to the plan's run directory.
std::string stage_cwd_path(const std::string& repo_root, const plan::Stage& stage);
std::string stage_log_path(const std::string& repo_root, const plan::Plan& plan, const plan::Stage& stage);

// Where the log of a stage's Nth try (from 1) is kept when --retries runs it again:
// "logs/train.log" -> "logs/train.attempt1.log" (the last try keeps the stage's own log).
std::string attempt_log_path(const std::string& log_path, std::size_t attempt);

RunSummary run_stages(const std::vector<const plan::Plan*>& plans, Executor& executor, Listener& listener,
                      const SchedulerOptions& options, const std::function<bool()>& interrupted);

}  // namespace tipc::run
