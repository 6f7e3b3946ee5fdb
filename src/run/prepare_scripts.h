#pragma once
// The repository's own test_tipc/prepare.sh, run for each config before its stages when the
// run asks for it (--prepare-script), as the reference workflow runs it before the runner:
// `bash test_tipc/prepare.sh CONFIG MODE`, its output appended to test_tipc/output/prepare.log.
#include <functional>
#include <vector>

#include "core/error.h"
#include "plan/plan.h"
#include "run/executor.h"
#include "run/scheduler.h"

namespace tipc::run {

// One config after the other, each a one-stage plan through the scheduler with `scheduler`'s
// root and timeouts: --timeout and an interrupt stop it as they stop any stage (SIGTERM, then
// SIGKILL after the grace), so a script that ignores SIGTERM cannot hang the run. An error
// names the config: exit code 1 for a failed script (with its log), 130 when interrupted.
Result<void> run_prepare_scripts(const std::vector<plan::Plan>& plans, Executor& executor, SchedulerOptions scheduler,
                                 const std::function<bool()>& interrupted);

}  // namespace tipc::run
