#pragma once
// A run in a scratch repository with the fake executor (virtual time, no processes) and
// the listeners that write the run's state, so the state files and the reports built
// from them can be tested in milliseconds.
#include <string>
#include <vector>

#include "plan/plan.h"
#include "run/journal.h"
#include "run/scheduler.h"
#include "support/fake_executor.h"
#include "support/temp_dir.h"

namespace tipc::test {

inline plan::Stage fake_stage(const std::string& id, plan::StageKind kind, std::vector<std::string> deps = {},
                              int gpus = 0) {
  plan::Stage s;
  s.id = id;
  s.kind = kind;
  s.argv = {"python3", id + ".py"};
  s.cwd = ".";
  s.log = "test_tipc/output/m/lite/" + id + ".log";
  s.deps = std::move(deps);
  s.needs.gpus = gpus;
  return s;
}

inline plan::Plan fake_plan(std::vector<plan::Stage> stages, const std::string& model = "m") {
  plan::Plan p;
  p.config_path = "test_tipc/configs/" + model + ".txt";
  p.dialect = "paddleocr";
  p.mode = "lite";
  p.model_name = model;
  p.output_dir = "test_tipc/output/" + model + "/lite";
  for (auto& stage : stages) stage.log = p.output_dir + "/" + stage.id + ".log";
  p.stages = std::move(stages);
  return p;
}

class FakeRun {
 public:
  FakeRun() {
    options.jobs = 1;
    options.resources.source = "--gpus";
    options.repo_root = repo.path().string();
  }

  // Runs the plans with the journal writer first, then `extra` (e.g. the report writer).
  // `whole`: the plans before a selection (--only, -k) left out some of their stages.
  run::RunSummary run(const std::vector<const plan::Plan*>& plans, std::vector<run::Listener*> extra = {},
                      bool resume = false, std::vector<const plan::Plan*> whole = {}) {
    options.resumed = resume ? run::passed_in_journal(options.repo_root, plans).value() : std::set<std::string>{};
    run::JournalWriter journal({options.repo_root, resume, "", "", {}, std::move(whole)});
    run::MultiListener listeners;
    listeners.add(journal);
    for (auto* listener : extra) listeners.add(*listener);
    return run::run_stages(plans, executor, listeners, options, [this] { return executor.interrupt_fired(); });
  }

  // The fake executor's script of a stage of fake_plan(..., model).
  run::FakeExecutor::Script& script(const std::string& id, const std::string& model = "m") {
    return executor.scripts["test_tipc/configs/" + model + ".txt#" + id];
  }

  std::string output(const std::string& model = "m") const {
    return (repo.path() / "test_tipc/output" / model / "lite").string();
  }

  TempDir repo;
  run::FakeExecutor executor;
  run::SchedulerOptions options;
};

}  // namespace tipc::test
