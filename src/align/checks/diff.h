#pragma once
// reprod_log's ReprodDiffHelper (compare_info + report) as a pure function: two loaded
// result dicts in, a structured verdict out. Rendering the log text is diff_log.h's job.
//
// Key order, nesting, auto-transpose, broadcasting, numpy dtype promotion and the sticky
// failure within a key follow reprod_log 1.0.1 (docs/cli.md#tipc-run-diff). Where
// reprod_log is silent or wrong, DiffRules names each rule; its defaults are tipc-run's
// strict ones, and the caller may choose reprod_log's own (reprod_log_rules.h, with the
// rest of the reference tools' semantics).
//
// Structural mismatches (missing key, type mismatch, shapes, bool, empty) abort the whole
// comparison in both modes, as reprod_log does, but as an Error naming the key path, both
// files and both values (exit code kExitFailed). Unreadable input gives kExitUsage.
#include <string>
#include <string_view>
#include <vector>

#include "align/io/pickle.h"
#include "align/numeric/layout.h"
#include "align/numeric/leaf_diff.h"
#include "core/error.h"

namespace tipc::align {

// The rules a comparison follows where reprod_log is silent or wrong; the defaults are strict.
struct DiffRules {
  bool nan_fails = true;               // a NaN statistic fails its key (reprod_log: passes)
  bool extra_nested_key_fails = true;  // a nested key only in file 2 is an error naming it (ignored)
  bool nothing_compared_fails = true;  // files holding no arrays are an error (pass)
  bool exact_integers = true;          // integer diffs as exact |a - b| (wrap around like numpy)
  // The mean sums the diff in C order, so the same values give the same digits in any
  // layout (numpy's memory order: Fortran when both operands are Fortran-contiguous).
  bool numpy_memory_order = false;
  // Warnings say what reprod_log does silently (transposing, broadcasting, integer
  // wrap-around, a layout rule that matched no key), and the diff command says why each
  // failing key failed (reprod_log says neither).
  bool explains = true;
};

struct DiffOptions {
  // "mean", "min", "max", "all" (= min,max,mean) or a comma-separated list ("min,max").
  std::string method = "mean";
  double threshold = 1e-6;
  DiffRules rules;
  // How B's arrays are laid out relative to A's, per key (layout.h); a rule matching no key
  // is a warning where the rules explain.
  std::vector<LayoutRule> layout;
};

enum class Statistic { kMin, kMax, kMean };
std::string_view to_string(Statistic statistic);

// The methods a report prints, in order; "all" expands to min, max, mean anywhere in a list.
Result<std::vector<Statistic>> parse_methods(std::string_view method);

struct MethodCheck {
  Statistic statistic = Statistic::kMean;
  StatValue value;
  bool passed = true;  // printed flag: sticky within the key once a method failed
};

// One report entry, in report (pre-order) order: a leaf (an array pair) with its method
// checks, or a nested dict whose children follow at depth + 1.
struct DiffEntry {
  std::string key;   // as printed (Python str of the key)
  std::string path;  // "outer.inner", for messages
  int depth = 0;
  bool is_group = false;
  std::vector<MethodCheck> checks;
  bool passed = true;
  std::string reason;  // why a leaf failed: "mean 0.25 > 1e-06", "NaN", ...
  LeafDiff diff;       // leaves only
};

struct DiffResult {
  std::vector<DiffEntry> entries;
  // Printed on stdout at compare time, never logged ("transpose sub_data1").
  std::vector<std::string> compare_lines;
  // DiffRules::explains: broadcasting, transposing, integer wrap-around; not in the log.
  std::vector<std::string> warnings;
  bool passed = true;
};

// Compares info1 (the reference: its key order is the report order) with info2.
// `name1`/`name2` are used in messages (usually the file paths).
Result<DiffResult> compare_values(const Value& info1, const Value& info2, const DiffOptions& options,
                                  const std::string& name1, const std::string& name2);

// Loads both files (reprod_log result .npy, or .npz) and compares them. Two plain numeric
// .npy files compare as one entry named after their file stems. Any other file that is not
// a reprod_log dict is an input error (kExitUsage) saying what it holds instead.
Result<DiffResult> compare_files(const std::string& path1, const std::string& path2, const DiffOptions& options);

}  // namespace tipc::align
