#pragma once
// The planner's output: an ordered list of stage commands. The executor only ever
// reads this; it never sees the config.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stage_kind.h"
#include "plan/check_spec.h"

namespace tipc::plan {

// The stage kinds live in core (core/stage_kind.h); these names are the ones the plan's
// users have always written.
using tipc::kAllStageKinds;
using tipc::stage_kind_from_string;
using tipc::StageKind;
using tipc::to_string;

struct Needs {
  int gpus = 0;   // GPUs the stage occupies (0: CPU only)
  int nodes = 1;  // machines for a multi-node train
};

// A stage that serves the stages depending on it (a serving chain's server): it runs in the
// background, they start once it is ready, and tipc-run stops it (its process group, with
// the usual grace) after the last of them ends, or when the run is interrupted.
struct Service {
  // Ready when a TCP connection to 127.0.0.1:port succeeds. Also the port it holds: two
  // services with one port never run at once.
  std::optional<int> port;
  std::string ready_pattern;  // or when a line of its log matches this (ECMAScript) regex; neither: at once
  double ready_timeout = 60;  // seconds from its start; not ready by then: it FAILs
};

// What a train stage trains with: as the config's train params give it for the plan's mode
// (native), or as the config's keys appear among the traced train's arguments. The benchmark
// record (report/benchmark_record.h) names its run by these.
struct TrainSetting {
  std::string batch_size;  // the batch size value for the mode ("" when the config gives none)
  std::string autocast;    // the precision (auto_cast) element: "null", "amp", "fp16", ...
  bool operator==(const TrainSetting&) const = default;
};

// A dependency that --only or -k left out of the run, with what it needs.
struct UnselectedDep {
  std::string id;
  Needs needs;
};

// What a stage's results_python.log line is made of (plan::render_status_line), and the
// logs the reference reads to decide it. Nothing else about a stage depends on these.
struct ResultsLogFields {
  std::string command;     // the reference's command text (status line)
  std::string shell_text;  // the string the reference evaluates (compat)
  std::string status_log;  // the log named in the status line
  // A log the trainer writes itself; appended to `log` after the stage. The reference
  // takes its presence as the train status (D2 in docs/reference-runner.md; compat status lines only).
  std::string trainer_log;
  // A traced plan's results_python.log line as the runner wrote it, cut around its word
  // ("Run successfully" or "Run failed"); absent for native plans, which render
  // Plan::status_line, and for a traced stage the runner wrote no line for.
  struct TracedStatus {
    std::string before;  // up to the word
    std::string after;   // after it
  };
  std::optional<TracedStatus> traced_status;
  // Compat: status lines of a traced plan that the runner wrote after this stage's own line
  // for commands it never started (see Plan::leading_status_lines), byte for byte.
  std::vector<std::string> trailing_status_lines;
  // Compat: the id of the stage whose result the runner writes as this stage's status-line
  // word ("" = its own). PaddleClas' test_paddle2onnx.sh reports its ONNX inference with the
  // conversion's `$last_status`: found by the status probes (plan/traced_status.h).
  std::string status_from;
};

struct Stage {
  std::string id;
  StageKind kind = StageKind::kTrain;
  std::vector<std::string> argv;  // interpreter first; redirections removed
  std::string cwd;                // relative to the repository root ("." = root)
  std::string
      cwd_made_by;  // the housekeeping step that makes cwd, e.g. "setup step X (`mkdir -p build` in deploy/cpp)"; "" = none known
  // Variables the stage sets; nullopt means the variable is removed.
  std::map<std::string, std::optional<std::string>> env;
  std::string log;                // where the stage's output is written
  std::vector<std::string> deps;  // ids of stages that must finish first
  // Ids of earlier stages of its plan that must have ended first, whatever their result: they
  // write a file this stage overwrites, or read it before it does (plan/output_separation), so it
  // runs after them as the runner ran it. Unlike a dependency, a failure there does not skip it.
  std::vector<std::string> after;
  // The stages before it that the selection (--only, -k) left out, through left-out
  // stages only: one that could never run here makes this stage UNSUPPORTED, as it is in
  // a full run, instead of running on inputs nothing here could have made.
  std::vector<UnselectedDep> unselected_deps;
  Needs needs;
  bool benchmark = false;  // timing-sensitive inference: run alone
  std::string launcher;    // the launcher of a distributed train ("" otherwise)
  int processes = 1;       // processes tipc-run starts itself (rank-env launcher)
  // A multi-node train: the hosts the config names (its `ips`), as they appear in argv. An
  // executor that allocates machines (Slurm) puts the allocated ones in their place.
  std::string hosts;
  // Where the stage's model lives: the train's save directory for train, eval and export,
  // the export's output directory for an OCR or Seg whole_infer export, the inference model
  // directory for infer ("" when the dialect has none). Alignment checks name their files
  // relative to it.
  std::string model_dir;
  ResultsLogFields results_log;               // what its results_python.log line is made of
  std::optional<Service> service;             // set on a kService stage
  std::optional<CheckSpec> check;             // kCheck stages: what they check, where the result goes
  std::optional<TrainSetting> train_setting;  // train stages
  // Why this stage cannot run as the plan states it, anywhere: the executor reports it
  // UNSUPPORTED with this reason instead of running it (and its dependents with it).
  std::optional<std::string> unsupported;
};

struct Plan {
  std::string config_path;
  std::string dialect;
  std::string mode;
  bool compat = false;
  std::string model_name;
  std::string run_dir = ".";  // where the reference runner starts, relative to the repository root
  std::string output_dir;     // LOG
  std::string results_log;    // LOG/results_python.log
  std::string banner;         // written before the first status line ("" = none)
  // The dialect's status-line format ("" for a traced plan: see ResultsLogFields::traced_status).
  std::string status_line;
  // Compat: the lines a traced runner wrote before any stage's own line for commands it
  // never started (an export it commented out, a server whose redirection failed), with
  // the runner's own word; written after the banner. Warnings name each.
  std::vector<std::string> leading_status_lines;
  std::vector<Stage> stages;
  std::vector<Diagnostic> warnings;
};

// One results_python.log line for a finished stage (without the newline); an error for a
// traced stage the runner wrote no line for.
Result<std::string> render_status_line(const Plan& plan, const Stage& stage, bool success);

}  // namespace tipc::plan
