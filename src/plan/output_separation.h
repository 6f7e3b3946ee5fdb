#pragma once
// No two stages of one run write the same file. The reference runner names its output
// directory after the config's model_name and MODE (test_tipc/output/MODEL/MODE) and runs
// one config per process, so configs that share a model name overwrite each other's logs
// only one after the other. A suite runs them together: each such config gets a directory
// of its own below the shared one, and a plan that still writes one file from two stages
// is refused with both stage ids.
#include <string>
#include <vector>

#include "plan/plan.h"

namespace tipc::plan {

// Moves every file a plan writes from `from` (its output directory, relative to its
// run_dir) to `to`: the output directory, the results log, each stage's logs, the paths in
// its commands, environment and status lines that name that directory or a path below it.
// A path that only starts with the same characters (test_tipc/output/m/lite_train_x) stays.
void relocate_output(Plan& plan, const std::string& from, const std::string& to);

// The plans that share an output directory (the same run_dir and output_dir) each get one
// of their own below it, named after the config file's stem (`train_infer_python`, then
// `train_infer_python-2` should two stems agree); a log a stage writes outside that
// directory moves into it too. A plan alone in its directory keeps it.
// Returns how many plans moved.
std::size_t separate_shared_outputs(std::vector<Plan>& plans);

// Stages of one plan whose logs have the same name (PaddleOCR's Windows config trains with
// autocast fp32 and amp, and its runner leaves the autocast out of the inference logs' names:
// the reference overwrites the first log with the second): each later one gets a log named
// after its stage, `<first part of its id>_<name>`, and the plan one warning with an example.
// A log that a stage reads (its path in an argv) keeps its name; find_output_clashes then
// refuses the plan. Returns how many logs were renamed.
std::size_t separate_shared_logs(Plan& plan);

// Two stages that write the same file: a log, a trainer's log, a check's result file or a
// train's model directory, as the repository root sees it.
struct OutputClash {
  std::size_t first_plan = 0, second_plan = 0;  // indexes into the plans given
  std::string first_stage, second_stage;        // their ids
  std::string path;                             // relative to the repository root
};

// Every file written by more than one stage of `plans` (each clash once, at its second writer).
std::vector<OutputClash> find_output_clashes(const std::vector<Plan>& plans);

}  // namespace tipc::plan
