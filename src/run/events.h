#pragma once
// The run's event stream: run started, stage started, stage finished, run finished, and a
// tick while stages run. Only what run/ knows: what a check measured is report/'s event
// (report/check_events.h). Reporters are listeners (Catch2 / googletest model); a MultiListener fans
// every event out.
#include <string>
#include <vector>

#include "plan/plan.h"
#include "run/gpu_figures.h"
#include "run/outcome.h"
#include "run/resources.h"
#include "run/run_verdict.h"

namespace tipc::run {

// One try of a stage that --retries ran again: every try but the last (StageRecord holds that one).
struct Attempt {
  Verdict verdict;
  double start_seconds = 0;  // since the run started
  double end_seconds = 0;
  std::string log_path;  // absolute: where its log was kept (attempt_log_path)
  std::optional<int> exit_code;
  std::optional<int> signal;
};

struct StageRecord {
  const plan::Plan* plan = nullptr;
  const plan::Stage* stage = nullptr;
  Observation observation;
  Verdict verdict;
  std::vector<std::string> gpus;  // physical ids allocated to it
  double start_seconds = -1;      // since the run started; -1: never started
  double end_seconds = -1;
  std::string log_path;  // absolute
  std::string job_id;    // the cluster's job id (--executor slurm)
  std::string nodes;     // the nodes that ran that job (Slurm's list, e.g. n[1-2])
  bool resumed = false;  // PASSed in an earlier run with the same command (--resume)
  bool done = false;
  std::vector<Attempt> attempts;  // the tries before the last one, oldest first (--retries)
  GpuFigures gpu_figures;         // sampled from the driver while it ran (run/gpu_watch.h)
  // What tipc-run saw on its GPUs that is not the stage's own doing: processes it did not start
  // holding memory there, memory of the previous holder not released in time.
  std::vector<std::string> gpu_warnings;
};

struct RunInfo {
  std::vector<const plan::Plan*> plans;
  std::size_t total_stages = 0;
  int jobs = 1;
  ResourceSpec resources;
};

struct RunSummary {
  std::vector<StageRecord> stages;
  double seconds = 0;
  bool interrupted = false;
  int count(Status status) const;
  // This run's own verdict (run_verdict.h): a resumed stage counts as the PASS it was;
  // `configs`: those the run was given and left out as invalid.
  RunVerdict verdict(ConfigCount configs = {}) const;
};

class Listener {
 public:
  virtual ~Listener() = default;
  virtual void run_started(const RunInfo&) {}
  virtual void stage_started(const StageRecord&) {}
  virtual void stage_finished(const StageRecord&) {}
  // While any stage runs, at least once a second of the run's clock (the executor's, so
  // virtual under the fake one): `run_seconds` since the run started. For progress lines.
  virtual void tick(double /*run_seconds*/) {}
  virtual void run_finished(const RunSummary&) {}
};

class MultiListener : public Listener {
 public:
  void add(Listener& listener) { listeners_.push_back(&listener); }
  void run_started(const RunInfo& info) override {
    for (auto* l : listeners_) l->run_started(info);
  }
  void stage_started(const StageRecord& record) override {
    for (auto* l : listeners_) l->stage_started(record);
  }
  void stage_finished(const StageRecord& record) override {
    for (auto* l : listeners_) l->stage_finished(record);
  }
  void tick(double run_seconds) override {
    for (auto* l : listeners_) l->tick(run_seconds);
  }
  void run_finished(const RunSummary& summary) override {
    for (auto* l : listeners_) l->run_finished(summary);
  }

 private:
  std::vector<Listener*> listeners_;
};

}  // namespace tipc::run
