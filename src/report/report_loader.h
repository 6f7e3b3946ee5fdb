#pragma once
// Builds the report model from what a run left on disk (run/journal.h): the plan files,
// the journals, the stage logs and the checks' JSON files. Never from live events, so the
// end of a run and `tipc-run report DIR` give the same reports, and a run that was
// interrupted or killed is reported completely:
//
// * every stage of the plan file (the whole plan, also what --only or -k left out)
//   appears, in plan order; a stage the journal does not name is SKIPPED, "not started
//   (the run ended before it)" or "not selected ...";
// * the journal's last entry of a stage wins, this run's or an earlier run's (a stage this
//   run did not run keeps its last result, marked with that run: EarlierRun); an earlier
//   result of a command that has changed since is not used (SKIPPED); a line cut by a
//   crash is left out; an earlier PASS in a --resume run is resumed;
// * a run without a "run finished" line was cut short: interrupted, no finish time;
// * a check stage's values come from its JSON file (its log path with .json for .log);
// * a stage that started and did not pass carries the last 30 lines of its log and its
//   first error line (error_line.h);
// * the environment is the one recorded beside the first plan file (environment.h), absent
//   for a run of an older tipc-run.
#include <string>
#include <vector>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

inline constexpr int kLogTailLines = 30;
// The reason of a stage the last run did not select (--only, -k) and no run has a result of.
inline constexpr const char* kNotSelectedReason = "not selected (--only or -k), and no earlier run has a result";

// Every plan whose plan file (.tipc-plan.json) lies at or under `dir`, in path order: the
// configs of one suite run, or of runs one config at a time into one tree, each plan with
// its own last results. An error when there is none, or a plan file cannot be read.
Result<RunReport> load_run_report(const std::string& dir);

// The runs at or under several directories as one report (the shards of a --shard run, each
// its own CI job): every plan file under each directory, in the order given. An error when a
// directory holds none, or when two plan files are of one config in one mode (a merge has
// every stage once).
Result<RunReport> load_merged_report(const std::vector<std::string>& dirs);

// One run, from its plan files (the plan order of the report).
Result<RunReport> load_run_report_files(const std::vector<std::string>& plan_files);

}  // namespace tipc::report
