#pragma once
// Runs a plan as the reference would, for the results-log conformance tests: compat, one
// stage at a time, eight fake GPUs, logs appended, in a throw-away root; returns the
// results_python.log it wrote, with the root spelled <REPO_ROOT> as the corpus spells it.
#include <filesystem>
#include <string>

#include "compat/run_semantics.h"
#include "plan/plan.h"
#include "run/executor.h"
#include "run/scheduler.h"
#include "support/golden_trace.h"
#include "support/run_binary.h"

namespace tipc::test {

inline std::string run_compat_serially(const plan::Plan& plan, const std::filesystem::path& root,
                                       run::Executor& executor) {
  namespace fs = std::filesystem;
  fs::create_directories(root / plan.run_dir);
  for (const auto& stage : plan.stages) fs::create_directories(root / stage.cwd);
  run::SchedulerOptions scheduler;
  scheduler.jobs = 1;
  for (int i = 0; i < 8; ++i) scheduler.resources.gpus.push_back({std::to_string(i), 1});
  scheduler.repo_root = root.string();
  const compat::RunSemantics reference = compat::run_semantics(true, root.string(), false);
  scheduler.appended_logs = reference.appended_logs;
  scheduler.multi_node_here = reference.multi_node_here;
  run::run_stages({&plan}, executor, *reference.results_log, scheduler, [] { return false; });
  const fs::path log = root / plan.run_dir / plan.results_log;
  return replace_all(fs::exists(log) ? slurp(log.string()) : "", root.string(), "<REPO_ROOT>");
}

}  // namespace tipc::test
