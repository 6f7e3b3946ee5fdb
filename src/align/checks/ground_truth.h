#pragma once
// Inference output against ground truth: TIPC's compare_results.py
// (docs/cli.md#tipc-run-compare-results) without its crashes. Ground-truth files and logs are matched by the precision in
// their names (fp32, fp16, int8); every key of the ground truth is looked up in the log and
// held to numpy's assert_allclose rule, |gt - pred| <= atol + rtol * |pred| element-wise
// (the prediction is the reference side, as upstream calls it; NaN equals NaN).
//
// Unlike upstream, every mismatching key and every skipped log is reported, a key missing
// from a log is a named failure, and keys are literal text (upstream greps them, so a `.`
// in a key matches any character there).
//
// A second comparison, `labels`, holds only what a trained model gives on every CPU (its
// weights depend on the CPU's rounding, so its scores do): the same shapes, the elements
// the ground truth writes as integers (class ids) equal, the others only finite.
//
// Everything here is pure: texts in, structs out. Globbing and reading files, printing and
// the JSON file are the compare-results command's job.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "align/checks/verdict.h"
#include "core/error.h"

namespace tipc::align {

// How results are written (docs/cli.md#tipc-run-compare-results, item 7).
enum class ResultFormat {
  kTipc,    // GT `<image path>\t<result>`, key = the path's basename; log: the first line
            // holding the key, the text after the key's last occurrence on it
  kVideo,   // PaddleVideo: keys `top-1 class` and `top-1 score`, value = the last whitespace
            // token of a line holding the key (the last such line in a log)
  kMetric,  // PaddleGAN: `metric_name:value` lines on both sides (the last one in a log)
};

enum class Precision { kFp32, kFp16, kInt8 };
const char* to_string(Precision precision);  // "fp32", "fp16", "int8"
// The precision a file's basename names, tested in upstream's order (fp32, fp16, int8).
std::optional<Precision> precision_in_name(const std::string& path);

// A result as numbers: nested lists become a shape (like np.array); one number has shape {}.
struct NumberArray {
  std::vector<std::size_t> shape;
  std::vector<double> values;  // C order
  std::vector<bool> integers;  // per value: written as an integer (digits, an optional sign)
};

// A JSON value made of (nested, rectangular) lists of numbers, with Python's NaN, Infinity
// and -Infinity; or else whitespace-separated numbers (a 1-D result). The error is a bare
// message: callers add file, line and key.
Result<NumberArray> parse_numbers(std::string_view text);

struct GroundTruthEntry {
  std::string key;
  int line = 0;      // physical, 1-based
  std::string text;  // the result as written
  NumberArray expected;
};

struct GroundTruth {
  std::string file;
  std::vector<GroundTruthEntry> entries;  // file order; keys are unique
};

// Errors name the file and line: a TIPC line without exactly one TAB, a metric line without
// exactly one ':', an unparseable result, a key given twice, a file without any result.
// Empty lines are ignored; a trailing CR is dropped.
Result<GroundTruth> parse_ground_truth(std::string_view text, const std::string& file, ResultFormat format);

// The files a ground-truth glob matched, sorted by precision. Files without a precision in
// their name are left out (listed in `ignored`). Errors: no fp32 file (naming the files
// found), two files for one precision.
struct GroundTruthFiles {
  std::map<Precision, std::string> by_precision;
  std::vector<std::string> ignored;
};
Result<GroundTruthFiles> pick_ground_truth_files(const std::vector<std::string>& matched);

struct AllcloseTolerance {
  double atol = 1e-3;
  double rtol = 1e-3;
};

// One element of a comparison: where it is, both values and what it was held to.
struct WorstElement {
  std::vector<std::size_t> index;
  double expected = 0, predicted = 0;
  double abs_diff = 0;   // infinite when exactly one side is NaN, or an infinity differs
  double tolerance = 0;  // infinite: the element only had to be finite (compare_labels)
};

struct AllcloseResult {
  bool shapes_match = true;
  std::size_t elements = 0, mismatched = 0;
  double max_abs_diff = 0;            // over all elements (0 when shapes differ or none)
  std::optional<WorstElement> worst;  // the largest |gt - pred| among the mismatching
                                      // elements, or among all when none mismatches
  bool passed() const { return shapes_match && mismatched == 0; }
};

// numpy.testing.assert_allclose(expected, predicted, rtol, atol) with equal_nan: shapes must
// be equal, infinities only match themselves.
AllcloseResult allclose(const NumberArray& expected, const NumberArray& predicted, const AllcloseTolerance& tolerance);

// The `labels` comparison: shapes must be equal; an element the ground truth writes as an
// integer must be equal (tolerance 0), any other element of the prediction only finite (its
// tolerance is infinite and it counts as differing only when the prediction is not finite).
// max_abs_diff and the worst element are over the integers, and the elements that failed.
AllcloseResult compare_labels(const NumberArray& expected, const NumberArray& predicted);

enum class Comparison { kAllclose, kLabels };
const char* to_string(Comparison comparison);  // "allclose", "labels"

struct CompareRule {
  Comparison comparison = Comparison::kAllclose;
  AllcloseTolerance tolerance;  // Allclose only
};

struct KeyComparison {
  std::string key;
  Verdict status = Verdict::kPass;         // PASS, FAIL or MISSING
  std::string reason;                      // why it failed or is missing ("" when it passed)
  int gt_line = 0, log_line = 0;           // log_line 0: the key is not in the log
  std::string gt_text, pred_text;          // the results as written
  std::optional<AllcloseResult> allclose;  // absent when missing
};

struct LogCheck {
  std::string log_file;
  Verdict status = Verdict::kSkipped;  // PASS, FAIL or SKIPPED
  std::string reason;                  // why it was skipped or failed ("" when it passed)
  std::optional<Precision> precision;  // the one its name gives
  std::string gt_file;                 // "" when skipped
  std::vector<KeyComparison> keys;     // ground-truth order
};

using GroundTruths = std::map<Precision, GroundTruth>;

// Why a log cannot be checked (no precision in its name, no ground truth for it), or nullopt.
std::optional<std::string> why_skipped(const std::string& log_file, const GroundTruths& truths);

// Checks a log that why_skipped accepts: every key of its precision's ground truth, held to
// the rule. PASS when all keys pass. An unparseable prediction is an error naming the log, its line and the key.
Result<LogCheck> check_log(const std::string& log_file, std::string_view log_text, const GroundTruths& truths,
                           ResultFormat format, const CompareRule& rule);

struct CompareReport {
  std::vector<LogCheck> logs;
  std::size_t count(Verdict status) const;
  // 0 when every checked log passed and at least one was checked; 1 otherwise.
  int exit_code() const;
};

}  // namespace tipc::align
