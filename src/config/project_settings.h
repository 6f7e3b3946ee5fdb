#pragma once
// The project's own tipc-run settings (test_tipc/tipc-run.yaml): stage timeouts,
// extra log checks, the data each mode needs, and defaults for the command line.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/gate_settings.h"
#include "core/check_kind.h"
#include "core/error.h"
#include "core/stage_kind.h"

namespace tipc::config {

struct DataStepSetting {
  std::string archive;       // relative to the repository root
  std::string destination;   // relative to the repository root
  std::string creates;       // relative to the destination
  int line = 0;              // of its `archive:` in the settings file, for messages
  int destination_line = 0;  // of its `destination:`
};

struct LogCheckSetting {
  std::string name;
  std::string pattern;           // ECMAScript regex, matched per output line
  std::vector<StageKind> kinds;  // the kinds of stage whose logs it reads; empty: all
};

// The stages an alignment check follows (`after:`): those of a kind, or those whose id
// matches a glob.
struct StagesAfter {
  std::optional<StageKind> kind;  // a stage kind's word: the stages of that kind
  std::string id_glob;            // any other text: a glob over stage ids
  std::string text;               // as written, for messages
};

// An alignment check run after the stages that produce its files (docs/settings.md). It
// becomes a `check` stage per producing stage: tipc-run itself, running one of its
// comparison subcommands in a child process (a crafted file cannot take the runner down).
struct AlignmentCheckSetting {
  std::string name;
  StagesAfter after;
  CheckKind subcommand = CheckKind::kDiff;  // the tipc-run subcommand that runs it
  std::vector<std::string> arguments;       // its arguments; {model_dir}, {log}, {output_dir}, {model}, {mode}
  std::string source;                       // "test_tipc/tipc-run.yaml:12", for messages
  std::vector<std::string> modes;           // the MODEs it applies to; empty: every MODE
};

// `slurm:` (docs/slurm.md): where --executor slurm sends the stages.
struct SlurmSetting {
  std::optional<std::string> partition;
  std::optional<std::string> account;
  std::optional<int> cpus_per_task;
  std::vector<std::string> srun_args;  // extra srun flags, e.g. ["--qos=ci", "--constraint=a100"]
  // `placement: tipc-run` (the default): each job pinned to nodes that tipc-run counts free
  // (run/cluster_placement.h); `slurm`: Slurm chooses, for a cluster shared with other users.
  bool tipc_run_places = true;
};

// `gpus:` (docs/settings.md, "GPU resources"): what a run expects of the machine's GPUs.
struct GpuSetting {
  std::optional<int> expect;  // `expect: N`: fewer usable GPUs is an error (--expect-gpus)
  double release_wait = 30;   // seconds a GPU waits for the memory of its last stage's processes
  bool exclusive = false;     // a process this run did not start on a stage's GPU fails the stage
};

// One variable of `trace_env:`, passed into the trace of the repository's runner
// (trace/passed_env.h).
struct TraceEnvSetting {
  std::string name;
  std::string value;
  int line = 0;  // in the settings file, for messages
};

// One glob of `exclude:`: configs left out of a directory suite (cli/suite.h).
struct ExcludeSetting {
  std::string glob;
  int line = 0;  // in the settings file, for messages
};

struct ProjectSettings {
  std::string path;  // "" when the project has none
  // Seconds per stage kind; a kind without one (a service) has none. A conversion and a
  // traced chain's other programs take the export's unless given their own.
  std::map<StageKind, double> timeouts{{StageKind::kTrain, 7200}, {StageKind::kEval, 1800}, {StageKind::kExport, 1800},
                                       {StageKind::kInfer, 1800}, {StageKind::kCheck, 600}, {StageKind::kConvert, 1800},
                                       {StageKind::kOther, 1800}, {StageKind::kSetup, 1800}};
  double grace = 10;        // seconds between SIGTERM and SIGKILL
  double idle_timeout = 0;  // `timeouts: idle`: no output this long is a TIMEOUT; 0: none
  GpuSetting gpus;
  std::vector<LogCheckSetting> log_checks;
  std::map<std::string, std::vector<DataStepSetting>> data;  // by MODE; "all" applies to every mode
  std::optional<std::string> launcher;
  std::optional<std::string> dialect;
  int dialect_line = 0;  // where `dialect:` is, for "declared in test_tipc/tipc-run.yaml:2"
  std::optional<int> jobs;
  int cpu_train_processes = 1;  // with a rank-spawning launcher: ranks of a CPU (-1) train (gloo)
  std::map<std::string, int> cpu_train_processes_by_mode;  // where a mode has its own number
  std::vector<AlignmentCheckSetting> alignment;
  SlurmSetting slurm;
  std::vector<GateSetting> gates;  // `gates:` (config/gate_settings.h)
  // `history:`: the run history's file, relative to the repository root; nullopt: the
  // default; "" (`history: false`): no history.
  std::optional<std::string> history;
  std::vector<ExcludeSetting> exclude;     // `exclude:` a glob or a list of them, in the file's order
  std::vector<TraceEnvSetting> trace_env;  // `trace_env:` NAME: VALUE, in the file's order
  // `modes:` a MODE or a list: the MODEs of a run that names none (`tipc-run test_tipc/configs`
  // runs the repository's usual CI set); `modes_line` its line, 0 when absent.
  std::vector<std::string> modes;
  int modes_line = 0;

  std::vector<DataStepSetting> data_for(const std::string& mode) const;
  int cpu_train_processes_for(const std::string& mode) const;
};

Result<ProjectSettings> load_project_settings(const std::string& path);

// The MODE's data steps whose archive is not a file under the repository root, each at its
// settings line: checked when planning, so --dry-run fails on them too.
std::vector<Diagnostic> missing_data_archives(const ProjectSettings& settings, const std::string& mode,
                                              const std::string& repo_root);

// The MODE's data steps whose `archive` or `destination` could name a path outside the
// repository (absolute, or with a ".." component: core/confined_path.h), one problem per
// key at its settings line. Checked when planning, unless --compat.
std::vector<Diagnostic> unconfined_data_paths(const ProjectSettings& settings, const std::string& mode);

}  // namespace tipc::config
