#pragma once
// A run's comparison with the run --baseline named, as the reports show it. cli compares
// the finished run (gate/run_comparison.h) and keeps what failed here, in
// .tipc-baseline.json beside the first plan file, so that the verdict of every report
// (report.json, junit.xml, summary.md, report.html), of `tipc-run report DIR` and of the run
// history is the one the run exits with (run/run_verdict.h: a failing regression makes a
// passing run FAIL, exit 6). The report layer cannot see gate: this is its plain record.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_field_reader.h"

namespace tipc::report {

inline constexpr const char* kBaselineFileName = ".tipc-baseline.json";

// One failing row of the comparison: a stage's result (figure "result") or a gated figure.
struct BaselineRegression {
  std::string config, mode, stage;
  std::string figure;         // as gate names it: "result", "train:ips", "eval:top1", ...
  std::string base, current;  // as gate words them: "PASS", "0.9", "120.5 samples/s"
  std::string change;         // "-11.11%"; "" for a result
  std::string why;
};

struct BaselineResult {
  std::string baseline;  // what it was compared with, as gate names it: "run 1", a directory
  // The run's start (RunReport::started) the comparison was made for: the loader ignores
  // a file left by an earlier run.
  std::optional<double> run_started;
  std::vector<BaselineRegression> regressions;  // the failing ones; empty: no failing regression
};

nlohmann::ordered_json baseline_json(const BaselineResult& result);
// The object baseline_json wrote (report.json's "baseline", the file); a missing field keeps its default.
Result<BaselineResult> read_baseline(const JsonFieldReader& fields);

// `dir`/.tipc-baseline.json, written atomically; remove_baseline_file takes it away (a run
// without --baseline, or one not yet compared, has no comparison).
Result<void> write_baseline_file(const std::string& dir, const BaselineResult& result);
void remove_baseline_file(const std::string& dir);
// nullopt when the file is missing, unreadable, or was written for a run that started at
// another time than `run_started`.
std::optional<BaselineResult> read_baseline_file(const std::string& dir, const std::optional<double>& run_started);

// "fake.txt lite_train_lite_infer norm_train/gpus_-1/eval eval:top1: 0.9 -> 0.8 (-11.11%): WHY":
// one regression, for every report.
std::string regression_line(const BaselineRegression& regression);

}  // namespace tipc::report
