#pragma once
// Comparing two PaDiff dumps layer by layer (docs/cli.md#tipc-run-padiff), as a pure
// function from two dumps to a structured result; printing it is the padiff command's job.
//
// The verdict follows PaDiff's offline checkers, with its known bugs fixed: every step and
// rank is checked (upstream stops after the first step), and the backward search compares
// bwd_grads all the way down (upstream compares forward outputs below the first level).
// The mean modes take exact means and let a pair whose every element is within the tolerance
// pass (MeanVerdict), where PaDiff's float32 means of the tensors as stored fail the same
// values stored in another layout.
// PadiffRules says which; the caller may put PaDiff's rules back, for its own verdicts.
// Where PaDiff stops at the first failure, this goes on and collects every place the search
// would have stopped: the first of them is PaDiff's answer, the rest are the other
// diverging leaves. Every layer pair that can be paired is also compared element-wise
// where the shapes allow, for its largest difference and where it is.
//
// Terms: A is the base dump, B the raw one; B is the reference of the tolerance test.
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "align/checks/layer_map.h"
#include "align/io/array.h"
#include "align/io/padiff_dump.h"
#include "align/numeric/layout.h"
#include "core/error.h"

namespace tipc::align {

// What is compared of a tensor pair: the means, every element, or the means of |t|.
enum class CompareMode { kMean, kStrict, kAbsMean };
const char* to_string(CompareMode mode);                               // "mean", "strict", "abs_mean"
std::optional<CompareMode> parse_compare_mode(std::string_view name);  // the other way; nullopt if unknown

// numpy's assert_allclose test: |x - y| <= atol + rtol * |y| (y from B), NaNs in the same
// places equal, infinities equal only to themselves. PaDiff's defaults are numpy's.
struct Tolerance {
  CompareMode mode = CompareMode::kMean;
  double atol = 0;
  double rtol = 1e-7;
};
bool within_tolerance(double a, double b, const Tolerance& tolerance);

// The element-wise view of a tensor pair, whatever the mode.
struct ElementDiff {
  double max_abs = 0;               // largest |a - b|; infinite where NaN or infinities differ
  std::vector<std::size_t> argmax;  // its index (empty for a 0-d pair); the first one on ties
  double a_at_max = 0;
  double b_at_max = 0;
  std::size_t outside = 0;  // elements failing the tolerance one by one
  std::size_t total = 0;
};

struct TensorComparison {
  bool passed = true;
  std::string detail;            // why it failed; empty when it passed
  std::optional<double> a_mean;  // mean / abs_mean modes: the scalars compared
  std::optional<double> b_mean;
  std::optional<ElementDiff> elements;  // when the shapes are equal or one side is 0-d
  // Under PaDiff's mean verdict: why tipc-run's own verdict on this pair is the other one.
  std::string note;
};

// How the mean modes decide (docs/cli.md#tipc-run-padiff).
// kExact, tipc-run's: the exact means of the elements (exact_sum.h: the same values give the
// same mean in any storage order) fail the tolerance, and so does at least one element where
// the pair can be compared element-wise: a pair whose every element is within the tolerance
// never diverges. kPadiff, PaDiff's own: numpy's means of the tensors as stored (float32 sums
// in memory order for float16/32, numeric/reduce.h) alone; the comparison then notes where
// tipc-run's verdict differs, and why.
enum class MeanVerdict { kExact, kPadiff };

// One tensor pair under `tolerance`.
TensorComparison compare_tensors(const Array& a, const Array& b, const Tolerance& tolerance,
                                 MeanVerdict verdict = MeanVerdict::kExact);

// The part of a dump a comparison belongs to.
enum class Check { kStructure, kForward, kBackward, kWeights, kGrads };
std::string_view to_string(Check check);  // "structure", "forward", "backward", "weights", "grads"

// One pair of layers (or, for weights and grads, one pair of parameters).
struct LayerComparison {
  Check check = Check::kForward;
  std::string where;  // the rank's label, "step_0/rank_0" ("" for a plain directory)
  std::string a_route, b_route;
  std::string a_class, b_class;
  std::vector<TensorComparison> tensors;
  std::string problem;  // a structural failure of this pair: output counts, a missing grad, shapes

  bool passed() const;
  // The tensor with the largest element-wise difference; nullptr when none has one.
  const TensorComparison* worst_tensor() const;
};

// A place where the search stops: a diverging leaf, a layer whose own output differs, a
// pair whose sublayers cannot be paired, or (check Structure) a mismatch of the dumps.
struct Divergence {
  Check check = Check::kForward;
  std::string where;
  std::optional<std::size_t> layer;  // index into PadiffResult::layers; none for Structure
  std::string reason;
};

enum class Phases { kBoth, kForward, kBackward };
std::optional<Phases> parse_phases(std::string_view name);  // "both", "forward", "backward"

// Where tipc-run's verdict fixes PaDiff's; the defaults are the fixed ones.
struct PadiffRules {
  // Every step is checked (PaDiff's get_all_valid_path returns inside its loop: only the first).
  bool every_step = true;
  // The backward search compares grads below the root too (PaDiff's descends with its forward
  // check: below the root it compares forward outputs, in forward order).
  bool backward_by_grads = true;
  // Means as tipc-run takes them (MeanVerdict::kExact), not as PaDiff does.
  MeanVerdict means = MeanVerdict::kExact;
  // What chose rules that leave steps out, named in the warning that says so.
  std::string chosen_by;
};

struct PadiffOptions {
  Tolerance tolerance;
  // forward: forward outputs and weights; backward: backward grads and grads.
  Phases phases = Phases::kBoth;
  LayerMap layer_map;
  PadiffRules rules;
  // How B's tensors are laid out relative to A's (`--layout`, layout.h), keyed by B's names:
  // a layer's route for its outputs and their grads, `<route>.<parameter>` for a parameter
  // and its grad. B is read through the rule's permutation; a parameter's rule replaces the
  // Linear transpose table.
  std::vector<LayoutRule> layout;
};

struct PadiffResult {
  std::vector<LayerComparison> layers;  // every compared pair, in search order
  std::vector<Divergence> divergences;  // in order: step, rank, root, forward, backward, weights, grads
  std::vector<std::string> warnings;
  std::size_t ranks = 0;  // rank pairs compared

  bool passed() const { return divergences.empty(); }
};

// Unreadable tensors are errors (kExitUsage); differences, however structural, are
// divergences. Comparing nothing at all is an error.
Result<PadiffResult> compare_dumps(const Dump& a, const Dump& b, const PadiffOptions& options);

}  // namespace tipc::align
