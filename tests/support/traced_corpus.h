#pragma once
// The recorded corpus (../shared/tipc-corpus, README §4-§9) as the trace tests read it, and
// the per-run check of a traced plan against it: the plan that plan_from_trace makes of a
// run's trace must give the recorded calls (argv, order, cwd, CUDA_VISIBLE_DEVICES), the
// byte-exact evaluated strings of raw.cmds and, all stages succeeding, the recorded status
// lines; with a native dialect, every stage has the native planner's kind and GPU count and
// every native dependency is implied by the traced plan's edges. The trace may be built from the golden
// files (golden_trace.h) or be the real runner's (trace/tracer.h): the check is the same.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dialect/dialect.h"
#include "plan/traced_planner.h"
#include "trace/trace.h"

namespace tipc::test {

std::filesystem::path corpus_dir();

// One recorded run: `base` is its golden file path without the suffix (golden/<Repo>/<id>).
struct CorpusRun {
  std::filesystem::path meta_file;
  std::string base;
  nlohmann::json meta;
  const nlohmann::json& corpus() const { return meta["corpus"]; }
  bool argv_comparable() const { return corpus()["compare"]["argv"].get<bool>(); }
  bool log_comparable() const { return corpus()["compare"]["results_log"].get<bool>(); }
  // The PaddleDetection dino run, comparable once its pre-steps are set apart (README §6).
  bool dino() const { return base.find("dino_r50_4scale") != std::string::npos; }
  // Whether its calls can be compared at all (README §8, step 1).
  bool comparable() const { return argv_comparable() || dino(); }
};

// Every recorded run of `repo` (no-runner ones included), sorted by name.
std::vector<CorpusRun> corpus_runs(const std::string& repo);

// The dino pre-step runs outside the string evaluation (README §6).
bool is_pre_step(const std::vector<std::string>& args);

std::string describe_call(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                          const std::optional<std::string>& cuda_visible_devices);

// The recorded calls as describe_call spells them, the pre-steps left out when asked.
std::vector<std::string> golden_calls(const CorpusRun& run, bool with_pre_steps);

// The recorded status log without the recorder's `### <path>` header, and that path
// relative to the repository root ({"", ""} for a run that wrote none).
std::pair<std::string, std::string> golden_status_log(const CorpusRun& run);
// Its non-empty lines, each ending in a newline.
std::string golden_status_lines(const CorpusRun& run);

// The config the run used, read as the traced planner reads it.
config::TrainInferConfig corpus_config(const CorpusRun& run);

// plan_from_trace in --compat for `run`, `extra` giving the root and the interpreter.
Result<plan::Plan> traced_corpus_plan(const CorpusRun& run, const trace::Trace& trace,
                                      const plan::TracedPlanOptions& extra);

// The native dialect of a corpus repository (the models repository's is the tutorial runner's,
// tutorials/mobilenetv3_prod/Step6, README §9); nullopt for another repository.
std::optional<dialect::Dialect> native_dialect(const std::string& repo);

// What went wrong, the first few kept to report.
struct Mismatches {
  int count = 0;
  std::vector<std::string> first;
  void note(const std::string& what);
  void report() const;  // one gtest failure each
};

struct PlanTally {
  int runs = 0, stages = 0, calls_ok = 0, evals_ok = 0, logs_ok = 0, logs_compared = 0, empty_plan_errors = 0;
  int kinds_ok = 0, kinds_compared = 0, native_edges = 0, edges_implied = 0, needs_same = 0, needs_compared = 0;
  int setup_stages = 0, setup_refused = 0;  // the runners' replayed housekeeping, and how much of it is refused
  Mismatches mismatches;
  std::string summary() const;  // the figures, one line
};

// Checks the traced plan of `trace`, which spells the repository root `root`, against the
// recording of `run`; `dialect` is the repository's native dialect when it has one.
void check_traced_plan(const CorpusRun& run, const trace::Trace& trace, const std::string& root,
                       const dialect::Dialect* dialect, PlanTally& tally);

}  // namespace tipc::test
