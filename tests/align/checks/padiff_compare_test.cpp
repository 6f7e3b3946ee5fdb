// Comparing PaDiff dumps: the tolerance test and the three modes on tensor pairs, then
// the layer search on small dumps written to disk (first divergence in execution order,
// backward order, net_id pairing, every step, parameters, ignore rules and the layer map).
#include "align/checks/padiff_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include <yaml-cpp/yaml.h>

#include "align/checks/padiff_report.h"
#include "align/io/npy.h"
#include "align/numeric/layout.h"
#include "align/numeric/reduce.h"
#include "compat/padiff_rules.h"
#include "support/float_bytes.h"
#include "support/padiff_dumps.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

using test::DumpWriter;
using test::OrderedJson;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T = double>
Array array(const std::vector<T>& values, std::vector<std::size_t> shape = {}, bool scalar = false) {
  auto parsed = parse_npy(test::npy_bytes(values, std::move(shape), scalar));
  EXPECT_TRUE(parsed) << parsed.error().str();
  return *parsed;
}

Tolerance tolerance(CompareMode mode, double atol = 0, double rtol = 1e-7) { return {mode, atol, rtol}; }

// ---- tensor pairs -------------------------------------------------------------------

TEST(PadiffTensors, TheThreeModesDisagreeWhereTheyShould) {
  struct Case {
    std::vector<double> a, b;
    bool mean, strict, abs_mean;
  };
  for (const Case& c : {
           Case{{1, 2}, {2, 1}, true, false, true},     // same mean, different elements
           Case{{-1, 1}, {0, 0}, true, false, false},   // same mean, different magnitude
           Case{{-1, -1}, {1, 1}, false, false, true},  // same magnitude, different sign
           Case{{3, 4}, {3, 4}, true, true, true},
       }) {
    EXPECT_EQ(compare_tensors(array(c.a), array(c.b), tolerance(CompareMode::kMean)).passed, c.mean) << c.a[0];
    EXPECT_EQ(compare_tensors(array(c.a), array(c.b), tolerance(CompareMode::kStrict)).passed, c.strict) << c.a[0];
    EXPECT_EQ(compare_tensors(array(c.a), array(c.b), tolerance(CompareMode::kAbsMean)).passed, c.abs_mean) << c.a[0];
  }
}

TEST(PadiffTensors, ToleranceIsInclusiveAndTakesBAsTheReference) {
  // Binary-exact values: |a - b| <= atol + rtol * |b| decides at the edge.
  EXPECT_TRUE(within_tolerance(1.25, 1.0, {CompareMode::kMean, 0.25, 0}));
  EXPECT_FALSE(within_tolerance(1.25, 1.0, {CompareMode::kMean, 0.125, 0}));
  EXPECT_TRUE(within_tolerance(1.75, 1.0, {CompareMode::kMean, 0.25, 0.5}));
  EXPECT_FALSE(within_tolerance(2.0, 1.0, {CompareMode::kMean, 0, 0.5}));  // 1 > 0.5 * |1|
  EXPECT_TRUE(within_tolerance(1.0, 2.0, {CompareMode::kMean, 0, 0.5}));   // 1 <= 0.5 * |2|

  const auto at_edge = compare_tensors(array({1.0, 1.5}), array({1.0, 1.0}), tolerance(CompareMode::kStrict, 0.5, 0));
  EXPECT_TRUE(at_edge.passed);
  const auto past_edge =
      compare_tensors(array({1.0, 1.5}), array({1.0, 1.0}), tolerance(CompareMode::kStrict, 0.25, 0.125));
  EXPECT_FALSE(past_edge.passed);
  EXPECT_EQ(past_edge.detail, "1 of 2 elements differ by more than atol + rtol * |B|");
}

TEST(PadiffTensors, TheDefaultRtolCatchesOneFloat32UlpBetweenMeans) {
  // The spec's numpy message: float32 means 1.0 and 1.0000001 fail rtol=1e-07, atol=0.
  const auto result = compare_tensors(array<float>({1.0f}), array<float>({std::nextafter(1.0f, 2.0f)}), Tolerance{});
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.detail.find("mean 1 vs 1.00000012"), std::string::npos) << result.detail;
  EXPECT_TRUE(compare_tensors(array<float>({1.0f}), array<float>({std::nextafter(1.0f, 2.0f)}),
                              tolerance(CompareMode::kMean, 0, 1e-6))
                  .passed);
}

TEST(PadiffTensors, MeansAreExactByDefaultAndNumpysUnderPadiffsVerdict) {
  // In float32, 16777216 + 1 == 16777216: numpy's float32 mean loses the ones, float64 keeps them.
  const std::vector<float> values = {16777216, 1, 1, 1, 1, 1, 1};
  const Array a = array<float>(values), b = array<double>({values.begin(), values.end()});
  const auto exact = compare_tensors(a, b, Tolerance{});
  EXPECT_TRUE(exact.passed) << exact.detail;
  EXPECT_EQ(*exact.a_mean, 16777222.0 / 7.0);
  EXPECT_EQ(*exact.b_mean, 16777222.0 / 7.0);
  EXPECT_EQ(exact.note, "");

  const auto padiff = compare_tensors(a, b, Tolerance{}, MeanVerdict::kPadiff);
  EXPECT_FALSE(padiff.passed);
  EXPECT_EQ(*padiff.a_mean, static_cast<double>(16777216.0f / 7.0f));
  EXPECT_EQ(*padiff.b_mean, 16777222.0 / 7.0);
  EXPECT_EQ(padiff.note,
            "tipc-run passes this pair: the exact mean 2396746 vs 2396746 agree; PaDiff's sums of the tensors as "
            "stored differ in their last bits (storage order)");
}

// |mean A - mean B| can exceed atol + rtol * |mean B| while every element is within its own
// tolerance, when B's elements of both signs cancel: no divergence by default.
TEST(PadiffTensors, APairWhoseEveryElementIsWithinTheToleranceNeverDiverges) {
  const Array a = array({1.0 + 1e-9, -1.0}), b = array({1.0, -1.0});
  for (const CompareMode mode : {CompareMode::kMean, CompareMode::kStrict}) {
    const auto result = compare_tensors(a, b, tolerance(mode));
    EXPECT_TRUE(result.passed) << to_string(mode) << ": " << result.detail;
    EXPECT_EQ(result.detail, "");
  }
  const auto padiff = compare_tensors(a, b, tolerance(CompareMode::kMean), MeanVerdict::kPadiff);
  EXPECT_FALSE(padiff.passed);
  EXPECT_EQ(padiff.note,
            "tipc-run passes this pair: every element is within the tolerance; the exact mean 5.00000041e-10 vs 0 fail "
            "it only because B's elements of both signs cancel in its mean");
  // One element outside: the means decide again.
  EXPECT_FALSE(compare_tensors(array({1.5, -1.0}), b, tolerance(CompareMode::kMean)).passed);
}

// The other way round: numpy's float32 sums round a real difference of the means away.
TEST(PadiffTensors, PadiffsVerdictCanPassWhatTheExactMeansFailAndSaysSo) {
  // Below 8 elements numpy adds one by one: 16777216 + 1 stays 16777216 six times over.
  const Array a = array<float>({16777216, 1, 1, 1, 1, 1, 1}), b = array<float>({16777216, 0, 0, 0, 0, 0, 0});
  EXPECT_FALSE(compare_tensors(a, b, Tolerance{}).passed);
  const auto padiff = compare_tensors(a, b, Tolerance{}, MeanVerdict::kPadiff);
  EXPECT_TRUE(padiff.passed) << padiff.detail;
  EXPECT_EQ(padiff.note,
            "tipc-run fails this pair: the exact mean 2396746 vs 2396745.14 differ by more than 0.24; PaDiff's sums of "
            "the tensors as stored round the difference away");
}

TEST(PadiffTensors, NaNsInTheSamePlacesAreEqualAndInfinitiesMustMatch) {
  EXPECT_TRUE(compare_tensors(array({kNaN, 1.0}), array({kNaN, 1.0}), tolerance(CompareMode::kStrict)).passed);
  EXPECT_TRUE(compare_tensors(array({kNaN, 1.0}), array({kNaN, 1.0}), tolerance(CompareMode::kMean)).passed);
  EXPECT_TRUE(compare_tensors(array({kInf, -kInf}), array({kInf, -kInf}), tolerance(CompareMode::kStrict)).passed);
  EXPECT_FALSE(compare_tensors(array({kInf}), array({-kInf}), tolerance(CompareMode::kStrict, 1e9, 1e9)).passed);

  const auto nan_vs_number =
      compare_tensors(array({1.0, kNaN}), array({1.0, 2.0}), tolerance(CompareMode::kStrict, 1e9));
  EXPECT_FALSE(nan_vs_number.passed);
  ASSERT_TRUE(nan_vs_number.elements);
  EXPECT_TRUE(std::isinf(nan_vs_number.elements->max_abs));  // ranks above every finite difference
  EXPECT_EQ(nan_vs_number.elements->argmax, std::vector<std::size_t>{1});
  EXPECT_FALSE(compare_tensors(array({1.0, kNaN}), array({1.0, 2.0}), tolerance(CompareMode::kMean, 1e9)).passed);
}

TEST(PadiffTensors, StrictNeedsEqualShapesExceptForA0dSide) {
  const auto mismatch = compare_tensors(array({1.0, 1.0}), array({1.0, 1.0, 1.0}), tolerance(CompareMode::kStrict));
  EXPECT_FALSE(mismatch.passed);
  EXPECT_EQ(mismatch.detail, "shapes (2,), (3,) mismatch");
  EXPECT_FALSE(mismatch.elements);
  // The mean modes compare scalars, so shapes may differ.
  EXPECT_TRUE(compare_tensors(array({1.0, 1.0}), array({1.0, 1.0, 1.0}), tolerance(CompareMode::kMean)).passed);
  // A 0-d side broadcasts.
  EXPECT_TRUE(compare_tensors(array({2.0}, {}, true), array({2.0, 2.0}), tolerance(CompareMode::kStrict)).passed);
  EXPECT_FALSE(compare_tensors(array({2.0}, {}, true), array({2.0, 3.0}), tolerance(CompareMode::kStrict)).passed);
}

// ---- dumps --------------------------------------------------------------------------

// Two single-rank dumps, A in "a" and B in "b".
struct DumpPair {
  test::TempDir temp;
  DumpWriter a{temp, "a"};
  DumpWriter b{temp, "b"};

  Result<PadiffResult> compare(const PadiffOptions& options = {}) const {
    auto dump_a = read_dump(a.dir().string());
    if (!dump_a) return fail(dump_a.error());
    auto dump_b = read_dump(b.dir().string());
    if (!dump_b) return fail(dump_b.error());
    return compare_dumps(*dump_a, *dump_b, options);
  }

  // PaDiff's own verdicts (--padiff-compat).
  Result<PadiffResult> compare_as_padiff() const {
    PadiffOptions padiff_own;
    padiff_own.rules = compat::padiff_own_rules();
    return compare(padiff_own);
  }
};

// A layer whose one output is [value, value].
OrderedJson layer(DumpWriter& dump, const std::string& route, float value,
                  const std::vector<OrderedJson>& children = {}, const std::string& name = "Linear") {
  return DumpWriter::layer(name, route, {dump.tensor<float>({value, value})}, {}, children);
}

// "forward A.route|B.route: reason" per divergence, for whole-list assertions.
std::vector<std::string> divergences(const PadiffResult& result) {
  std::vector<std::string> out;
  for (const Divergence& d : result.divergences) {
    std::string text = std::string(to_string(d.check)) + (d.where.empty() ? "" : " " + d.where) + " ";
    if (d.layer) text += result.layers[*d.layer].a_route + "|" + result.layers[*d.layer].b_route + ": ";
    out.push_back(text + d.reason);
  }
  return out;
}

const LayerComparison* find_layer(const PadiffResult& result, const std::string& a_route) {
  for (const LayerComparison& layer : result.layers)
    if (layer.a_route == a_route) return &layer;
  return nullptr;
}

// step_0 and step_1 of M, which differs only in step_1.
void write_steps_diverging_in_the_second(DumpPair& dumps) {
  for (const std::string step : {"step_0", "step_1"}) {
    DumpWriter a(dumps.temp, "a/" + step + "/rank_0"), b(dumps.temp, "b/" + step + "/rank_0");
    a.write_report({layer(a, "M", 1)});
    b.write_report({layer(b, "M", step == "step_1" ? 2 : 1)});
  }
}

TEST(PadiffSearch, TheFirstDivergenceIsTheEarliestDivergingLeafInExecutionOrder) {
  DumpPair dumps;
  // M( block(fc1 fc2) fc3 ): fc2 diverges, and everything after it follows.
  for (auto [side, fc2, after] : {std::tuple{&dumps.a, 1.f, 1.f}, std::tuple{&dumps.b, 5.f, 9.f}}) {
    side->write_report(
        {layer(*side, "M", after,
               {layer(*side, "M.block", fc2, {layer(*side, "M.block.fc1", 1), layer(*side, "M.block.fc2", fc2)}),
                layer(*side, "M.fc3", after)})});
  }
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_FALSE(result->passed());
  EXPECT_EQ(divergences(*result), (std::vector<std::string>{"forward M.block.fc2|M.block.fc2: no sublayers",
                                                            "forward M.fc3|M.fc3: no sublayers"}));
  EXPECT_EQ(result->layers.size(), 5u);
  EXPECT_TRUE(find_layer(*result, "M.block.fc1")->passed());
}

TEST(PadiffSearch, ADiffNoSublayerExplainsIsReportedAtTheLayer) {
  DumpPair dumps;
  for (auto [side, own] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}})
    side->write_report({layer(*side, "M", own, {layer(*side, "M.fc1", 1), layer(*side, "M.fc2", 1)})});
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"forward M|M: sublayers correspond, but the diff is in this layer's own output"});
}

TEST(PadiffSearch, SublayersOfAMatchingLayerAreMeasuredButDoNotDiverge) {
  DumpPair dumps;
  // Mean mode: M's outputs agree, so PaDiff never looks inside; fc differs but is no divergence.
  for (auto [side, fc] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}})
    side->write_report({layer(*side, "M", 1, {layer(*side, "M.fc", fc)})});
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed());
  ASSERT_TRUE(find_layer(*result, "M.fc"));
  EXPECT_FALSE(find_layer(*result, "M.fc")->passed());
  EXPECT_EQ(find_layer(*result, "M.fc")->worst_tensor()->elements->max_abs, 1.0);
}

TEST(PadiffSearch, TheBackwardSearchComparesGradsInReverseOrder) {
  DumpPair dumps;
  for (auto [side, grad] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}}) {
    DumpWriter& w = *side;
    const auto node = [&](const std::string& route, std::vector<OrderedJson> children = {}) {
      const std::string output = w.tensor<float>({1});  // forward outputs agree everywhere
      const std::string grads = w.tensor<float>({grad});
      return DumpWriter::layer("Linear", route, {output}, {grads}, children);
    };
    w.write_report({node("M", {node("M.fc1"), node("M.fc2")})});
  }
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result),
            (std::vector<std::string>{"backward M.fc2|M.fc2: no sublayers", "backward M.fc1|M.fc1: no sublayers"}));
  PadiffOptions forward_only;
  forward_only.phases = Phases::kForward;
  const auto forward = dumps.compare(forward_only);
  ASSERT_TRUE(forward) << forward.error().str();
  EXPECT_TRUE(forward->passed());
}

// PaDiff's API nodes have an empty route; they are named by API and call index instead.
TEST(PadiffSearch, ApiCallsAreNamedByTheirApiAndCallIndex) {
  DumpPair dumps;
  for (auto [side, second_matmul] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}}) {
    DumpWriter& w = *side;
    const auto api = [&](const std::string& name, float value) {
      OrderedJson node = DumpWriter::layer(name, "", {w.tensor<float>({value, value})});
      node["type"] = "api";
      return node;
    };
    w.write_report({layer(w, "M", second_matmul, {api("matmul", 1), api("add", 1), api("matmul", second_matmul)})});
  }
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"forward M/matmul#1|M/matmul#1: no sublayers"});
  EXPECT_TRUE(find_layer(*result, "M/matmul#0")->passed());
  EXPECT_TRUE(find_layer(*result, "M/add#0")->passed());
}

// --padiff-compat: PaDiff's backward check descends with its forward check, so grads that
// differ only below the root are blamed on the root when the forward outputs agree.
TEST(PadiffCompat, TheBackwardSearchDescendsByForwardOutputs) {
  DumpPair dumps;
  for (auto [side, grad] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}}) {
    DumpWriter& w = *side;
    const auto node = [&](const std::string& route, std::vector<OrderedJson> children = {}) {
      return DumpWriter::layer("Linear", route, {w.tensor<float>({1})}, {w.tensor<float>({grad})}, children);
    };
    w.write_report({node("M", {node("M.fc1"), node("M.fc2")})});
  }
  const auto result = dumps.compare_as_padiff();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"backward M|M: sublayers correspond, but the diff is in this layer's own output"});
}

TEST(PadiffCompat, OnlyTheFirstStepIsChecked) {
  DumpPair dumps;
  write_steps_diverging_in_the_second(dumps);
  const auto result = dumps.compare_as_padiff();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed());
  EXPECT_EQ(result->ranks, 1u);
  EXPECT_EQ(result->warnings,
            std::vector<std::string>{"--padiff-compat: only step_0 of 2 steps checked, as PaDiff does"});
}

TEST(PadiffSearch, LayersPairByNetIdWhateverTheirOrder) {
  DumpPair dumps;
  const auto with_id = [](OrderedJson node, int id) {
    node["metas"] = {{"net_id", id}};
    return node;
  };
  dumps.a.write_report(
      {layer(dumps.a, "M", 1, {with_id(layer(dumps.a, "M.fc1", 1), 1), with_id(layer(dumps.a, "M.fc2", 2), 2)})});
  dumps.b.write_report(
      {layer(dumps.b, "N", 2, {with_id(layer(dumps.b, "N.fc2", 3), 2), with_id(layer(dumps.b, "N.fc1", 1), 1)})});
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"forward M.fc2|N.fc2: no sublayers"});
  EXPECT_EQ(find_layer(*result, "M.fc1")->b_route, "N.fc1");
}

TEST(PadiffSearch, SublayersThatCannotBePairedAreReportedAtTheParent) {
  DumpPair dumps;
  dumps.a.write_report({layer(dumps.a, "M", 1, {layer(dumps.a, "M.fc1", 1), layer(dumps.a, "M.fc2", 1)})});
  dumps.b.write_report({layer(dumps.b, "M", 2, {layer(dumps.b, "M.fc1", 1)})});
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(
      divergences(*result),
      std::vector<std::string>{"forward M|M: sublayers cannot be paired: A has 2 net, 0 api, 0 mapped sublayers, B "
                               "has 1 net, 0 api, 0 mapped sublayers"});
}

TEST(PadiffSearch, DifferentOutputCountsFailTheLayer) {
  DumpPair dumps;
  dumps.a.write_report({DumpWriter::layer("Model", "M", {dumps.a.tensor<float>({1}), dumps.a.tensor<float>({1})})});
  dumps.b.write_report({DumpWriter::layer("Model", "M", {dumps.b.tensor<float>({1})})});
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(result->divergences.size(), 1u);
  EXPECT_EQ(result->layers[*result->divergences[0].layer].problem, "A has 2 outputs, B has 1");
}

TEST(PadiffSearch, EveryStepIsCheckedNotOnlyTheFirst) {
  DumpPair dumps;
  write_steps_diverging_in_the_second(dumps);
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(result->ranks, 2u);
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"forward step_1/rank_0 M|M: no sublayers"});
}

TEST(PadiffSearch, DumpsWithDifferentStepCountsDivergeStructurally) {
  DumpPair dumps;
  for (const std::string dir : {"a/step_0", "a/step_1", "b/step_0"}) {
    DumpWriter w(dumps.temp, dir);
    w.write_report({layer(w, "M", 1)});
  }
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"structure A has 2 steps, B has 1"});
}

TEST(PadiffSearch, AnUnreadableTensorIsAnErrorNamingTheFile) {
  DumpPair dumps;
  dumps.a.write_report({layer(dumps.a, "M", 1)});
  dumps.b.write_report({layer(dumps.b, "M", 1)});
  const std::string broken = dumps.temp.write("b/tensors/tensor_0.npy", "not an npy");
  const auto result = dumps.compare();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().exit_code, kExitUsage);
  EXPECT_NE(result.error().str().find(broken), std::string::npos) << result.error().str();
}

// ---- parameters ---------------------------------------------------------------------

TEST(PadiffParams, ParametersPairByPositionWhateverTheirNames) {
  DumpPair dumps;
  dumps.a.write_params(DumpWriter::param_node(
      "Linear", "M.fc", {{"weight", dumps.a.tensor<float>({1, 2})}, {"bias", dumps.a.tensor<float>({0.5})}}));
  dumps.b.write_params(DumpWriter::param_node(
      "Linear", "N.fc", {{"w", dumps.b.tensor<float>({1, 2})}, {"b", dumps.b.tensor<float>({0.75})}}));
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"weights M.fc.bias|N.fc.b: parameter differs"});
}

TEST(PadiffParams, APaddleLinearWeightIsComparedWithTorchsTransposed) {
  DumpPair dumps;
  PadiffOptions strict;
  strict.tolerance.mode = CompareMode::kStrict;
  // Paddle stores [in, out] = (2, 3); torch stores [out, in] = (3, 2).
  dumps.a.write_params(
      DumpWriter::param_node("Linear", "M.fc", {{"weight", dumps.a.tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3})}}),
      "paddle");
  dumps.b.write_params(
      DumpWriter::param_node("Linear", "N.fc", {{"weight", dumps.b.tensor<float>({1, 4, 2, 5, 3, 6}, {3, 2})}}),
      "torch");
  auto result = dumps.compare(strict);
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed()) << divergences(*result).front();

  // The same shapes from one framework are simply different.
  dumps.b.write_params(
      DumpWriter::param_node("Linear", "N.fc", {{"weight", dumps.b.tensor<float>({1, 4, 2, 5, 3, 6}, {3, 2})}}),
      "paddle");
  result = dumps.compare(strict);
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(result->divergences.size(), 1u);
  EXPECT_EQ(result->layers[*result->divergences[0].layer].tensors.at(0).detail, "shapes (2, 3), (3, 2) mismatch");
}

// Paddle (2, 3) and torch (3, 2) hold the same weight, but their float32 means sum the
// elements in different memory orders: 1e8 + 1 rounds to 1e8 in one order and not the
// other. PaDiff's verdict fails; the exact means agree, and a note says why.
TEST(PadiffParams, ATransposedWeightPassesByDefaultAndPadiffsFalseAlarmIsExplained) {
  DumpPair dumps;
  dumps.a.write_params(
      DumpWriter::param_node("Linear", "M.fc", {{"weight", dumps.a.tensor<float>({1e8f, 1, -1e8f, 1, 1, 1}, {2, 3})}}),
      "paddle");
  dumps.b.write_params(
      DumpWriter::param_node("Linear", "N.fc", {{"weight", dumps.b.tensor<float>({1e8f, 1, 1, 1, -1e8f, 1}, {3, 2})}}),
      "torch");
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed()) << divergences(*result).front();
  const TensorComparison& exact = find_layer(*result, "M.fc.weight")->tensors.at(0);
  EXPECT_EQ(*exact.a_mean, 4.0 / 6.0);
  EXPECT_EQ(*exact.b_mean, 4.0 / 6.0);

  const auto padiff = dumps.compare_as_padiff();
  ASSERT_TRUE(padiff) << padiff.error().str();
  ASSERT_EQ(padiff->divergences.size(), 1u);
  const TensorComparison& weight = padiff->layers[*padiff->divergences[0].layer].tensors.at(0);
  EXPECT_FALSE(weight.passed);
  EXPECT_EQ(*weight.a_mean, 0.5);
  EXPECT_EQ(*weight.b_mean, static_cast<double>(1.0f / 6.0f));
  EXPECT_EQ(weight.elements->outside, 0u);
  EXPECT_EQ(weight.note,
            "tipc-run passes this pair: the exact mean 0.666666667 vs 0.666666667 agree; PaDiff's sums of the tensors "
            "as stored differ in their last bits (storage order)");
}

TEST(PadiffParams, AGradOnOneSideOnlyFailsAndNoGradOnEitherIsSkipped) {
  DumpPair dumps;
  dumps.a.write_params(
      DumpWriter::param_node("Linear", "M.fc", {}, {{"weight", dumps.a.tensor<float>({1})}, {"bias", nullptr}}));
  dumps.b.write_params(DumpWriter::param_node("Linear", "M.fc", {}, {{"weight", nullptr}, {"bias", nullptr}}));
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(result->layers.size(), 1u);
  EXPECT_EQ(result->layers[0].problem, "B has no grad for this parameter, the other has one");
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"grads M.fc.weight|M.fc.weight: parameter differs"});
}

TEST(PadiffParams, UnavailableLayersAreSkippedAndCountsMustMatch) {
  DumpPair dumps;
  auto hidden = DumpWriter::param_node("Dropout", "M.drop", {{"mask", dumps.a.tensor<float>({9})}});
  hidden["available"] = false;
  dumps.a.write_params(
      DumpWriter::param_node("Linear", "M.fc", {{"weight", dumps.a.tensor<float>({1})}}, {}, {hidden}));
  dumps.b.write_params(DumpWriter::param_node("Linear", "M.fc", {{"weight", dumps.b.tensor<float>({1})}}));
  auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed());

  dumps.b.write_params(DumpWriter::param_node("Linear", "M.fc", {{"weight", dumps.b.tensor<float>({1})}}, {},
                                              {DumpWriter::param_node("ReLU", "M.act", {})}));
  result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), (std::vector<std::string>{"structure weights: A has 1 layers, B has 2",
                                                            "structure grads: A has 1 layers, B has 2"}));
}

// ---- layer map ----------------------------------------------------------------------

PadiffOptions with_map(const test::TempDir& temp, const std::string& yaml) {
  PadiffOptions options;
  auto map = read_layer_map(temp.write("map.yaml", yaml));
  EXPECT_TRUE(map) << map.error().str();
  options.layer_map = *map;
  return options;
}

TEST(PadiffLayerMap, IgnoringAWrapperLetsItsSublayersPairUp) {
  DumpPair dumps;
  dumps.a.write_report(
      {layer(dumps.a, "M", 1,
             {layer(dumps.a, "M.wrap", 1, {layer(dumps.a, "M.wrap.fc1", 1), layer(dumps.a, "M.wrap.fc2", 1)})})});
  dumps.b.write_report({layer(dumps.b, "M", 2, {layer(dumps.b, "M.fc1", 1), layer(dumps.b, "M.fc2", 2)})});
  auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(
      divergences(*result),
      std::vector<std::string>{"forward M|M: sublayers cannot be paired: A has 1 net, 0 api, 0 mapped sublayers, B "
                               "has 2 net, 0 api, 0 mapped sublayers"});
  result = dumps.compare(with_map(dumps.temp, "base:\n  ignore: M.wrap\n"));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"forward M.wrap.fc2|M.fc2: no sublayers"});
}

TEST(PadiffLayerMap, IgnoringRecursivelyRemovesADivergingSubtree) {
  DumpPair dumps;
  for (auto [side, noise] : {std::pair{&dumps.a, 1.f}, std::pair{&dumps.b, 2.f}})
    side->write_report(
        {layer(*side, "M", noise,
               {layer(*side, "M.fc", 1), layer(*side, "M.aux", noise, {layer(*side, "M.aux.noise", noise)})})});
  auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), std::vector<std::string>{"forward M.aux.noise|M.aux.noise: no sublayers"});

  result = dumps.compare(
      with_map(dumps.temp, "base:\n  ignore_recursively: [M.aux]\nraw:\n  ignore_recursively: [M.aux]\n"));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"forward M|M: sublayers correspond, but the diff is in this layer's own output"});
  EXPECT_FALSE(find_layer(*result, "M.aux.noise"));
}

TEST(PadiffLayerMap, IgnoringAClassOnOneSideRemovesItsContainers) {
  DumpPair dumps;
  // A wraps fc1 in a Sequential that B does not have.
  dumps.a.write_report(
      {layer(dumps.a, "M", 1,
             {layer(dumps.a, "M.seq", 1, {layer(dumps.a, "M.seq.0", 1)}, "Sequential"), layer(dumps.a, "M.fc2", 1)})});
  dumps.b.write_report({layer(dumps.b, "M", 2, {layer(dumps.b, "M.fc1", 2), layer(dumps.b, "M.fc2", 2)})});
  auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result).front(), "forward M.seq|M.fc1: no sublayers");

  result = dumps.compare(with_map(dumps.temp, "base:\n  ignore_class: {under: M}\n"));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result).front(), "forward M.seq.0|M.fc1: no sublayers");
}

TEST(PadiffLayerMap, MappedLayersPairByRouteAndAreComparedOnlyAtTheirOutputs) {
  DumpPair dumps;
  dumps.a.write_report({layer(dumps.a, "M", 1,
                              {layer(dumps.a, "M.enc", 1, {layer(dumps.a, "M.enc.x", 1), layer(dumps.a, "M.enc.y", 1)}),
                               layer(dumps.a, "M.fc", 1)})});
  dumps.b.write_report({layer(
      dumps.b, "N", 2, {layer(dumps.b, "N.fc", 1), layer(dumps.b, "N.rnn", 2, {layer(dumps.b, "N.rnn.p", 2)})})});
  const auto result = dumps.compare(with_map(dumps.temp, "map:\n  M.enc: N.rnn\n"));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"forward M.enc|N.rnn: compared only at its outputs (layer map)"});
  EXPECT_TRUE(find_layer(*result, "M.fc")->passed());
  EXPECT_EQ(find_layer(*result, "M.fc")->b_route, "N.fc");
  EXPECT_FALSE(find_layer(*result, "M.enc.x"));
}

TEST(PadiffLayerMap, InMapLayersOfTheReportsPairThroughTheirLayerMaps) {
  DumpPair dumps;
  for (auto [side, root, mapped, fc] :
       {std::tuple{&dumps.a, "M", "M.lstm", "M.fc"}, std::tuple{&dumps.b, "N", "N.rnn", "N.fc"}}) {
    auto lstm = layer(*side, mapped, 3, {}, "LSTM");
    lstm["type"] = "in map";
    auto children = side == &dumps.a ? std::vector<OrderedJson>{lstm, layer(*side, fc, 1)}
                                     : std::vector<OrderedJson>{layer(*side, fc, 1), lstm};
    const OrderedJson layer_map = {{"route", OrderedJson::array({mapped})}, {"fullname", OrderedJson::array({"LSTM"})}};
    side->write_report({layer(*side, root, side == &dumps.a ? 1 : 2, children)}, "paddle", layer_map);
  }
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(find_layer(*result, "M.lstm")->b_route, "N.rnn");
  EXPECT_EQ(find_layer(*result, "M.fc")->b_route, "N.fc");
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"forward M|N: sublayers correspond, but the diff is in this layer's own output"});
}

// ---- storage layouts (issue 29) ----------------------------------------------------

// Values like a trained layer's: both signs, magnitudes over several binades, from a fixed
// LCG so that every platform gets the same ones.
std::vector<double> layer_like_values(std::size_t n, std::uint32_t seed) {
  std::vector<double> out(n);
  for (double& v : out) {
    seed = seed * 1664525u + 1013904223u;
    const double unit = static_cast<double>(seed >> 8) / 16777216.0;  // [0, 1), 24 bits
    v = (unit - 0.55) * std::ldexp(1.0, static_cast<int>(seed % 5) - 2);
  }
  return out;
}

std::vector<float> as_floats(const std::vector<double>& values) { return {values.begin(), values.end()}; }

// The C-order matrix m of shape (rows, cols) stored as (cols, rows): its transpose's elements.
template <typename T>
std::vector<T> transposed_values(const std::vector<T>& m, std::size_t rows, std::size_t cols) {
  std::vector<T> out(m.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = m[r * cols + c];
  return out;
}

// An array of `dtype` (float16, 32 or 64) holding `c_order_values` (given in C order) under
// `shape`, stored in C or Fortran order.
Array stored(Dtype dtype, const std::vector<double>& c_order_values, std::vector<std::size_t> shape, bool fortran) {
  std::vector<double> memory = c_order_values;
  if (fortran) memory = transposed_values(c_order_values, shape.at(0), shape.at(1));
  return Array{dtype, std::move(shape), fortran, SharedBytes::own(test::float_bytes(dtype.item_size, memory))};
}

// C order, Fortran order and a transposed tensor (B stored (cols, rows) and read as its .T,
// as the Linear weights are) of the same values, in float16/32/64, small and over several
// of numpy's 8192-element blocks: every mode passes, and the exact means are bit for bit
// the same. One element off fails every mode in every layout.
TEST(PadiffLayouts, TheSameValuesInAnyLayoutPassEveryModeAndOneElementOffFailsIt) {
  const std::vector<Dtype> dtypes{{DtypeKind::kFloat, 2, ByteOrder::kLittle},
                                  {DtypeKind::kFloat, 4, ByteOrder::kLittle},
                                  {DtypeKind::kFloat, 8, ByteOrder::kLittle}};
  bool numpy_means_differ = false;
  for (const Dtype& dtype : dtypes) {
    for (const auto& [rows, cols] : {std::pair<std::size_t, std::size_t>{16, 8}, {130, 97}}) {
      SCOPED_TRACE(dtype.name() + " " + std::to_string(rows) + "x" + std::to_string(cols));
      const std::vector<double> values = layer_like_values(rows * cols, 7);
      const Array c_order = stored(dtype, values, {rows, cols}, false);
      const Array fortran = stored(dtype, values, {rows, cols}, true);
      Array transposed_view = stored(dtype, transposed_values(values, rows, cols), {cols, rows}, false);
      transposed_view.shape = {rows, cols};  // numpy's .T: the same bytes in the other order
      transposed_view.fortran_order = true;
      const Array& transposed = transposed_view;
      std::vector<double> off = values;
      off[rows * cols / 2] += 1;
      for (const Array* other : {&c_order, &fortran, &transposed}) {
        for (const CompareMode mode : {CompareMode::kMean, CompareMode::kAbsMean, CompareMode::kStrict}) {
          const auto same = compare_tensors(c_order, *other, tolerance(mode));
          EXPECT_TRUE(same.passed) << to_string(mode) << ": " << same.detail;
          EXPECT_EQ(same.a_mean, same.b_mean) << to_string(mode);
          const auto one_off =
              compare_tensors(stored(dtype, off, {rows, cols}, other->fortran_order), *other, tolerance(mode));
          EXPECT_FALSE(one_off.passed) << to_string(mode);
          EXPECT_EQ(one_off.elements->argmax, unravel_index(rows * cols / 2, std::vector<std::size_t>{rows, cols}));
        }
        numpy_means_differ = numpy_means_differ || numpy_mean(c_order, false) != numpy_mean(*other, false);
      }
    }
  }
  EXPECT_TRUE(numpy_means_differ);  // the layouts do change numpy's sums: the test exercises something
}

// A two-layer model, Paddle's SimpleLayer (A) against torch's SimpleModule (B), two steps.
// Every tensor holds the same values on both sides, the Linear weights and their grads
// stored as each framework stores them ([in, out] in A, [out, in] in B), except fc2's
// forward output at step 1 (and the model's, which is fc2's): all 12 elements off by 0.5.
void write_two_layer_dumps(DumpPair& dumps) {
  for (const std::string step : {"step_0", "step_1"}) {
    for (const bool is_a : {true, false}) {
      DumpWriter w(dumps.temp, std::string(is_a ? "a/" : "b/") + step + "/rank_0");
      const std::string framework = is_a ? "paddle" : "torch", root = is_a ? "SimpleLayer" : "SimpleModule";
      const std::uint32_t step_seed = step == "step_0" ? 117 : 208;  // numpy's fc1 means fail at both
      const auto values = [&](std::uint32_t salt, std::size_t n) { return layer_like_values(n, step_seed + salt); };
      const float fc2_offset = !is_a && step == "step_1" ? 0.5f : 0.0f;
      const auto activation = [&](std::uint32_t salt, std::size_t cols, float offset = 0) {
        std::vector<float> v = as_floats(values(salt, 4 * cols));
        for (float& x : v) x += offset;
        return w.tensor<float>(v, {4, cols});
      };
      const auto fc1 = DumpWriter::layer("Linear", root + ".fc1", {activation(1, 8)}, {activation(2, 8)});
      const auto fc2 = DumpWriter::layer("Linear", root + ".fc2", {activation(3, 3, fc2_offset)}, {activation(4, 3)});
      w.write_report({DumpWriter::layer(root, root, {activation(3, 3, fc2_offset)}, {activation(4, 3)}, {fc1, fc2})},
                     framework);
      const auto weight = [&](std::uint32_t salt, std::size_t in, std::size_t out) {
        const std::vector<float> v = as_floats(values(salt, in * out));
        return is_a ? w.tensor<float>(v, {in, out}) : w.tensor<float>(transposed_values(v, in, out), {out, in});
      };
      const auto linear = [&](const std::string& name, std::uint32_t salt, std::size_t in, std::size_t out) {
        return DumpWriter::param_node(
            "Linear", root + "." + name,
            {{"weight", weight(salt, in, out)}, {"bias", w.tensor<float>(as_floats(values(salt + 1, out)))}},
            {{"weight", weight(salt + 2, in, out)}, {"bias", w.tensor<float>(as_floats(values(salt + 3, out)))}});
      };
      w.write_params(DumpWriter::param_node(root, root, OrderedJson::object(), OrderedJson::object(),
                                            {linear("fc1", 10, 16, 8), linear("fc2", 20, 8, 3)}),
                     framework);
    }
  }
}

TEST(PadiffLayouts, TheTwoLayerDumpPairDivergesOnlyAtFc2sOutputInStep1) {
  DumpPair dumps;
  write_two_layer_dumps(dumps);
  const auto result = dumps.compare();
  ASSERT_TRUE(result) << result.error().str();
  const std::string text = render_padiff_text(*result, {"a", "b", Tolerance{}, 3});
  EXPECT_EQ(divergences(*result),
            std::vector<std::string>{"forward step_1/rank_0 SimpleLayer.fc2|SimpleModule.fc2: no sublayers"})
      << text;
  EXPECT_NE(text.find("first divergence: forward step_1/rank_0\n  layer:  Linear\n  route:  SimpleLayer.fc2\n"
                      "          SimpleModule.fc2\n  reason: no sublayers\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("12 of 12 elements outside the tolerance"), std::string::npos) << text;
  EXPECT_EQ(text.find("PaDiff's verdict"), std::string::npos) << text;
}

// --padiff-compat: PaDiff checks step 0 only and fails transposed weights and grads (fc1's
// both, fc2's grad) on their float32 means; each such layer gets a line saying why tipc-run
// passes it.
TEST(PadiffCompat, PadiffsFalseAlarmsOnTheTwoLayerDumpPairAreNoted) {
  DumpPair dumps;
  write_two_layer_dumps(dumps);
  const auto result = dumps.compare_as_padiff();
  ASSERT_TRUE(result) << result.error().str();
  const std::string text = render_padiff_text(*result, {"a", "b", Tolerance{}, 3});
  EXPECT_EQ(divergences(*result),
            (std::vector<std::string>{
                "weights step_0/rank_0 SimpleLayer.fc1.weight|SimpleModule.fc1.weight: parameter differs",
                "grads step_0/rank_0 SimpleLayer.fc1.weight|SimpleModule.fc1.weight: parameter differs",
                "grads step_0/rank_0 SimpleLayer.fc2.weight|SimpleModule.fc2.weight: parameter differs"}))
      << text;
  for (const Divergence& divergence : result->divergences) {
    const std::string& note = result->layers[*divergence.layer].tensors.at(0).note;
    EXPECT_TRUE(note.starts_with("tipc-run passes this pair: the exact mean ")) << note;
  }
  EXPECT_NE(text.find("PaDiff's verdict, not tipc-run's (3 layers):\n  weights   step_0/rank_0  "
                      "SimpleLayer.fc1.weight vs SimpleModule.fc1.weight: value: tipc-run passes this pair: the exact "
                      "mean "),
            std::string::npos)
      << text;
}

// ---- --layout: B's tensors in another framework's layout -----------------------------

PadiffOptions with_layout(const std::string& yaml) {
  PadiffOptions options;
  options.tolerance.mode = CompareMode::kStrict;
  auto rules = layout_rules_from_yaml(YAML::Load(yaml), "layout.yaml");
  EXPECT_TRUE(rules) << rules.error().str();
  if (rules) options.layout = std::move(*rules);
  return options;
}

// A channels-last port: its conv output is NHWC (1, 2, 2, 3) and its kernel HWIO (1, 1, 2, 3),
// the same values as the reference's NCHW (1, 3, 2, 2) and OIHW (3, 2, 1, 1).
void write_nchw_and_nhwc(DumpPair& dumps, float last_kernel_value) {
  const std::vector<float> nchw{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<float> nhwc{1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12};
  dumps.a.write_report({DumpWriter::layer("Conv2d", "M.conv", {dumps.a.tensor<float>(nchw, {1, 3, 2, 2})})});
  dumps.b.write_report({DumpWriter::layer("Conv2D", "P.conv", {dumps.b.tensor<float>(nhwc, {1, 2, 2, 3})})});
  dumps.a.write_params(
      DumpWriter::param_node("Conv2d", "M.conv", {{"weight", dumps.a.tensor<float>({1, 2, 3, 4, 5, 6}, {3, 2, 1, 1})}}),
      "torch");
  dumps.b.write_params(
      DumpWriter::param_node("Conv2D", "P.conv",
                             {{"weight", dumps.b.tensor<float>({1, 3, 5, 2, 4, last_kernel_value}, {1, 1, 2, 3})}}),
      "paddle");
}

TEST(PadiffLayout, ChannelsLastOutputsAndHwioKernelsCompareElementWiseThroughTheirRules) {
  DumpPair dumps;
  write_nchw_and_nhwc(dumps, 6);
  const std::string rules = "P.conv.weight: hwio_to_oihw\nP.conv: [0, 3, 1, 2]\n";
  auto result = dumps.compare(with_layout(rules));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_TRUE(result->passed()) << divergences(*result).front();
  EXPECT_TRUE(result->warnings.empty());

  // Without the rules the shapes differ: no element-wise comparison, and the kernel fails.
  result = dumps.compare(with_layout("{}"));
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(divergences(*result), (std::vector<std::string>{"forward M.conv|P.conv: no sublayers",
                                                            "weights M.conv.weight|P.conv.weight: parameter differs"}));
}

TEST(PadiffLayout, AKernelElementOffIsLocatedInTheReferencesLayout) {
  DumpPair dumps;
  write_nchw_and_nhwc(dumps, 7);
  const auto result = dumps.compare(with_layout("P.conv.weight: hwio_to_oihw\nP.conv: [0, 3, 1, 2]\n"));
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(divergences(*result), std::vector<std::string>{"weights M.conv.weight|P.conv.weight: parameter differs"});
  const auto& elements = result->layers[*result->divergences[0].layer].tensors.at(0).elements;
  ASSERT_TRUE(elements);
  EXPECT_EQ(elements->argmax, (std::vector<std::size_t>{2, 1, 0, 0}));  // OIHW [2, 1]: A 6, B 7
}

TEST(PadiffLayout, ARuleOfAnotherRankFailsThePairAndAnUnusedRuleIsAWarning) {
  DumpPair dumps;
  write_nchw_and_nhwc(dumps, 6);
  const auto result = dumps.compare(with_layout("P.conv: [0, 3, 1, 2]\nP.conv.weight: [1, 0]\nP.head: transpose\n"));
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(divergences(*result), std::vector<std::string>{"weights M.conv.weight|P.conv.weight: parameter differs"});
  const std::string problem = result->layers[*result->divergences[0].layer].problem;
  EXPECT_NE(problem.find("layout rule 'P.conv.weight' does not fit B's float32 array of shape (1, 1, 2, 3)"),
            std::string::npos)
      << problem;
  ASSERT_EQ(result->warnings.size(), 1u);
  EXPECT_NE(result->warnings[0].find("'P.head: transpose' (layout.yaml:3) was used for no compared tensor of B"),
            std::string::npos)
      << result->warnings[0];
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
