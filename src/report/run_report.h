#pragma once
// The model every report is rendered from (report.json, JUnit XML, summary.md, report.html).
//
// It is built from what a run leaves on disk (the plan file, the journal, the stage logs
// and the checks' JSON files), never from live events, so `tipc-run report DIR` and the
// end of a run produce the same reports, and an interrupted or killed run can be reported
// completely: every planned stage appears, the ones that never ran as SKIPPED.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "plan/plan_file_record.h"
#include "report/baseline_result.h"
#include "report/environment.h"
#include "report/history_trends.h"
#include "run/gpu_figures.h"
#include "run/outcome.h"
#include "run/resources.h"
#include "run/run_verdict.h"

namespace tipc::report {

// One point of a curve parsed from a train log (log_metrics.h).
struct CurvePoint {
  double step = 0;  // the x axis: global iteration (or epoch when a log has no iterations)
  double value = 0;
};

// A named series: "loss", "acc", "lr", "top1", ... of one rank.
struct Curve {
  std::string name;
  std::vector<CurvePoint> points;
};

// AutoLog-style inference timings of one inference stage.
struct InferenceTimings {
  // preprocess/inference/postprocess: per batch or image as logged; total: the whole run's
  // AutoLog "total time spent".
  std::optional<double> preprocess_ms, inference_ms, postprocess_ms, total_ms;
  std::optional<int> batch_size;
  std::optional<std::string> precision, device;
  std::optional<int> cpu_threads;
  // AutoLog's Perf info: resident memory in MiB and the GPU's utilisation (nvidia-smi's
  // maximum); data_num is the number of timed samples.
  std::optional<double> cpu_rss_mb, gpu_rss_mb, gpu_util_percent;
  std::optional<int> data_num;
};

// A figure logged at every step of a train log, summarised over its steps.
struct FigureStats {
  double median = 0, mean = 0;
  std::size_t steps = 0;  // the logged values summarised
};

// The benchmark figures of a train log: `ips: 123.4 samples/s`, `batch_cost: 0.12 s`,
// `reader_cost: 0.01 s`, `max_mem_reserved: 1234 MB` on its logged steps (log_metrics.h).
struct BenchmarkFigures {
  std::optional<FigureStats> ips, batch_cost_s, reader_cost_s;
  std::string ips_unit;  // as logged: "samples/s", "images/sec"; "" when the log names none
  std::optional<double> max_mem_reserved_mb, max_mem_allocated_mb;  // the largest logged
  std::size_t skipped_steps = 0;  // warm-up steps of each rank left out of the statistics
  std::vector<Curve> ips_curves;  // ips over the logged steps (x: 1, 2, ...), one per rank
};

// Metrics parsed from a stage's log; empty when the log has none.
struct StageMetrics {
  std::vector<Curve> curves;                   // train stages
  std::map<std::string, double> final_values;  // e.g. eval "top1" -> 0.97
  std::optional<InferenceTimings> timings;     // infer stages
  std::optional<BenchmarkFigures> benchmark;   // train stages whose log has throughput figures
};

// One value of an alignment check against its limit (a diff statistic, a tolerance, a KS statistic).
struct CheckValue {
  std::string label;  // "logits: max", "circle_000.ppm", "fc.weight: KS"
  double value = 0;
  std::optional<double> limit;
  bool passed = true;
};

// A weight-initialisation histogram pair (init-check), for the HTML report.
struct HistogramPair {
  std::string key;
  std::vector<double> edges;                 // bins + 1 edges, shared by both sides
  std::vector<double> reference, candidate;  // counts per bin
};

// What a check stage wrote with --json: its kind and its values.
struct CheckDetails {
  // Which check; nullopt when its plan entry could not say (a damaged plan file).
  std::optional<CheckKind> kind;
  bool passed = false;
  std::vector<CheckValue> values;
  std::vector<HistogramPair> histograms;
  std::vector<std::string> notes;           // warnings, skipped logs
  std::vector<std::string> compared_files;  // absolute; diff: the reference and candidate (for the bundle)
  std::string result_file;                  // the file these were read from (for the bundle)
};

// The run that produced a stage's result, when that is not the run that wrote the reports:
// a run restricted by --only or -k, a resumed one, or an interrupted one leaves the stages
// it did not run with their last result (report_loader.h).
struct EarlierRun {
  std::string id;                 // its run_id
  std::optional<double> started;  // Unix time, seconds
  bool same_command = true;       // false: the stage's command has changed since
};

// A try of a stage that --retries ran again, before its last one (the stage's own result).
struct AttemptReport {
  run::Status result = run::Status::kFail;
  std::string reason;
  std::optional<double> started;  // Unix time, seconds
  std::optional<double> seconds;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string log;       // absolute: <log stem>.attemptN<ext> beside the stage's log
  std::string log_tail;  // its last lines
};

struct StageReport {
  std::string id;
  plan::StageKind kind = plan::StageKind::kOther;
  std::vector<std::string> argv;
  std::map<std::string, std::optional<std::string>> env;  // nullopt: the variable is removed
  std::string cwd;
  std::string log;  // absolute path
  std::vector<std::string> deps;
  int gpus_needed = 0;  // on each node
  int nodes_needed = 1;
  std::optional<plan::TrainSetting> train_setting;  // train stages (absent in an older plan file)

  run::Status result = run::Status::kSkipped;
  std::string reason;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::optional<double> started;          // Unix time, seconds
  std::optional<double> seconds;          // duration
  std::vector<std::string> gpus;          // physical ids it ran on
  std::string job_id;                     // the cluster's job id (--executor slurm); "" otherwise
  std::string nodes;                      // the nodes of that job, in Slurm's notation (n[1-2]); "" otherwise
  bool resumed = false;                   // PASSed in an earlier run (--resume)
  bool selected = true;                   // the last run selected it (--only, -k): one of that run's own stages
  std::optional<EarlierRun> earlier_run;  // set when the result is an earlier run's
  std::vector<std::string> log_findings;  // log checks that matched (traceback, nan loss, ...)
  std::vector<AttemptReport> attempts;    // the tries before the last one, oldest first (--retries)

  StageMetrics metrics;
  std::optional<CheckDetails> check;  // check stages whose JSON file exists
  std::string log_tail;               // last lines of the log, for stages that did not pass
  std::string error_line;             // its log's first error line (error_line.h); "" when none is found
  // A TIMEOUT's first frames where it hung, most recent call first (stack_dump.h); empty when
  // its log holds no stacks.
  std::vector<std::string> stack;
  run::GpuFigures gpu;                    // the driver's figures while it ran; empty() without samples
  std::vector<std::string> gpu_warnings;  // what on its GPUs was not its doing (run::StageRecord's)
};

// A problem of a config the run left out as invalid (the others ran).
struct ConfigProblem {
  std::string file;  // as given on the command line
  int line = 0;      // 0: the whole file
  std::string key;
  std::string message;
};

// One config in one mode: a JUnit testsuite.
struct PlanReport {
  std::string config;       // as given on the command line
  std::string config_file;  // absolute
  std::string mode;
  std::string model;
  std::string dialect;
  std::string
      dialect_source;      // how it was chosen: "declared in test_tipc/tipc-run.yaml:2", "marker ppcls/ found in ..."
  std::string output_dir;  // absolute
  std::vector<StageReport> stages;  // plan order
};

struct RunReport {
  int schema = 1;
  std::string tool_version;
  std::optional<double> started, finished;  // Unix time; finished is absent for a run cut short
  bool interrupted = false;
  int jobs = 1;
  std::vector<std::string> gpus;  // the GPUs the run was given
  std::string resources_source;   // "--gpus", "nvidia-smi -L", a spec file, "none"
  // Those of the GPUs the driver described (index, name, UUID; the journal's "gpu_devices");
  // empty where no driver was asked. Their `slots` mean nothing here.
  std::vector<run::Gpu> gpu_devices;
  bool resumed = false;       // --resume
  std::string repo_root;      // absolute
  std::string settings_file;  // absolute; "" when the project has none
  std::vector<PlanReport> plans;
  std::vector<ConfigProblem> invalid_configs;                    // every problem of the configs left out
  std::vector<std::string> excluded_configs;                     // the configs --exclude left out (each once)
  std::vector<plan::ConfigInOtherModes> configs_in_other_modes;  // a directory's configs in none of the MODEs
  std::optional<Environment> environment;                        // absent for a run of an older tipc-run
  // Where the reports are written (write_reports sets it): report.html links the logs
  // relative to it, so that a copy of the tree (the bundle) keeps its links.
  std::string report_dir;
  // report.html's history section: set by cli from the run history once the run is recorded
  // (history/report_trends.h); absent when there is no history to read. No other report shows it.
  std::optional<HistoryTrends> trends;
  // The comparison with the run --baseline named (baseline_result.h); absent without one.
  // Its failing regressions are part of the verdict.
  std::optional<BaselineResult> baseline;

  int count(run::Status result) const;
  // The configs given (those planned, and those left out) and the invalid ones.
  run::ConfigCount config_count() const;
  // The whole plan's verdict (run/run_verdict.h), the one every report prints and the run
  // exits with; a run cut short (no finish recorded) is interrupted, a result this version
  // does not know is no pass, and a failing regression against the baseline fails it.
  run::RunVerdict verdict() const;
  // How `tipc-run report` exits: the verdict's code.
  int exit_code(const run::VerdictRules& rules) const;
};

// The results every report leads with and the console recaps at the end of a run: the
// stages a reviewer must look at (FAIL, TIMEOUT, UNRESOLVED). The one place to add a result.
bool needs_attention(run::Status result);

// How near a check value is to its limit, as value / limit (above 1: over it); the value
// itself without a positive limit; not a number is the worst: infinity.
double closeness_to_limit(const CheckValue& value);

// What a report shows of a check first, worst first: its failing values (at most
// `max_failing`), or, when none fails, the `nearest` values nearest their limits.
// "diff", "compare-results", "init-check"; "check" when the kind is not known.
const char* check_kind_word(const CheckDetails& check);

// The verdict of one plan's stages alone (a suite's (config, MODE)): what its report.json
// entry and junit testsuite state beside the run's.
run::RunVerdict plan_verdict(const PlanReport& plan);

std::vector<const CheckValue*> headline_values(const CheckDetails& check, std::size_t max_failing, std::size_t nearest);

// "at 2024-05-01 12:00:00 UTC (an earlier run)": when an earlier run's result was produced,
// for every report; "" for a result of the run that wrote the reports.
std::string earlier_run_note(const StageReport& stage);

// "job 4711 on n[1-2]" (or "job 4711" without nodes): the cluster job that ran a stage, for
// every report and the console; "" for a stage that ran as no job.
std::string cluster_job_label(const std::string& job_id, const std::string& nodes);

}  // namespace tipc::report
