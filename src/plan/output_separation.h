#pragma once
// No two stages of one run write the same file. The reference runner names its output
// directory after the config's model_name and MODE (test_tipc/output/MODEL/MODE) and runs
// one config per process, so configs that share a model name overwrite each other's logs
// only one after the other. A suite runs them together: each such config gets a directory
// of its own below the shared one. Stages of one plan that write one file run in the
// runner's order; what still cannot run as the runner runs it is refused with the reason.
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
// after its stage, `<first part of its id>_<name>` (and so does its trainer log where that is the
// stage's own log), and the plan one warning with an example.
// A log that a stage reads (its path in an argv) keeps its name; find_output_clashes then
// refuses the plan. Returns how many logs were renamed.
std::size_t separate_shared_logs(Plan& plan);

// Stages of one plan that write one file other than a log (two trains whose trainer line
// hard-codes `--output=exp/default`, a trainer log of one name, a check's result file): the
// runner runs them one after the other, and the last one's output stays. Each later writer
// starts once the writer before it has ended, and every stage between them that waits for
// that one (what reads its output), whatever their results (Stage::after): the runner's
// order, never at once, each with its own log. One warning per plan names the files and their
// writers. Returns how many files are shared.
std::size_t order_shared_outputs(Plan& plan);

// A file that two stages would write and that no order settles, with why.
struct OutputClash {
  std::size_t first_plan = 0, second_plan = 0;  // indexes into the plans given
  std::string first_stage, second_stage;        // their ids
  std::string path;                             // relative to the repository root
  std::string reason;                           // why it cannot be run as the runner runs it
};

// What cannot run faithfully (each clash once, at its second writer): a file written by
// stages of two plans (the configs of a suite run side by side), and a log of two stages of
// one plan (separate_shared_logs leaves one only where a stage reads it by its name). A
// stage never clashes with itself; other files of one plan are order_shared_outputs'.
std::vector<OutputClash> find_output_clashes(const std::vector<Plan>& plans);

}  // namespace tipc::plan
