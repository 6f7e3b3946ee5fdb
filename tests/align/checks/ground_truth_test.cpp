#include "align/checks/ground_truth.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The demo's ground truth (test_tipc/results/python_alexnet_results_fp32.txt), two lines.
constexpr std::string_view kDemoTruth =
    "./lite_data/alexnet/test/circle/circle_000.ppm\t[0, 0.913780]\n"
    "./lite_data/alexnet/test/square/square_001.ppm\t[1, 0.790844]\n";

NumberArray numbers(std::vector<std::size_t> shape, std::vector<double> values) {
  std::vector<bool> integers(values.size(), false);
  return {std::move(shape), std::move(values), std::move(integers)};
}

NumberArray parsed(std::string_view text) {
  auto array = parse_numbers(text);
  EXPECT_TRUE(array) << text;
  return array ? *array : NumberArray{};
}

GroundTruths demo_truths() {
  GroundTruths truths;
  truths.emplace(Precision::kFp32, *parse_ground_truth(kDemoTruth, "results_fp32.txt", ResultFormat::kTipc));
  return truths;
}

std::string error_of(const Result<GroundTruth>& truth) { return truth ? "(no error)" : truth.error().str(); }

TEST(GroundTruthParse, ADemoLineGivesTheImageBasenameAndItsNumbers) {
  const auto truth = parse_ground_truth(kDemoTruth, "results_fp32.txt", ResultFormat::kTipc);
  ASSERT_TRUE(truth) << truth.error().str();
  ASSERT_EQ(truth->entries.size(), 2u);
  const GroundTruthEntry& first = truth->entries[0];
  EXPECT_EQ(first.key, "circle_000.ppm");
  EXPECT_EQ(first.line, 1);
  EXPECT_EQ(first.text, "[0, 0.913780]");
  EXPECT_EQ(first.expected.shape, std::vector<std::size_t>{2});
  EXPECT_EQ(first.expected.values, (std::vector<double>{0, 0.91378}));
  EXPECT_EQ(truth->entries[1].key, "square_001.ppm");
}

TEST(GroundTruthParse, NumbersAreJsonListsOrElseWhitespaceSeparated) {
  auto boxes = parse_numbers(" [[[209, 406], [280, 406]], [[1, 2], [3, 4]]] ");
  ASSERT_TRUE(boxes) << boxes.error().str();
  EXPECT_EQ(boxes->shape, (std::vector<std::size_t>{2, 2, 2}));
  EXPECT_EQ(boxes->values, (std::vector<double>{209, 406, 280, 406, 1, 2, 3, 4}));

  const auto words = parse_numbers("209 406\t280.5 -1e-3");
  ASSERT_TRUE(words) << words.error().str();
  EXPECT_EQ(words->shape, std::vector<std::size_t>{4});
  EXPECT_EQ(words->values, (std::vector<double>{209, 406, 280.5, -1e-3}));

  const auto scalar = parse_numbers("0.5");
  ASSERT_TRUE(scalar);
  EXPECT_TRUE(scalar->shape.empty());

  const auto special = parse_numbers("[NaN, Infinity, -Infinity]");  // what Python's json accepts
  ASSERT_TRUE(special) << special.error().str();
  EXPECT_TRUE(std::isnan(special->values[0]));
  EXPECT_EQ(special->values[1], kInf);
  EXPECT_EQ(special->values[2], -kInf);

  const auto empty_rows = parse_numbers("[[], []]");
  ASSERT_TRUE(empty_rows);
  EXPECT_EQ(empty_rows->shape, (std::vector<std::size_t>{2, 0}));
}

TEST(GroundTruthParse, IntegersAreDigitsWithAnOptionalSign) {
  EXPECT_EQ(parsed("[0, 0.5, -3, +4, 1e3, 2.0, NaN]").integers,
            (std::vector<bool>{true, false, true, true, false, false, false}));
  EXPECT_EQ(parsed("7 0.25").integers, (std::vector<bool>{true, false}));
}

TEST(GroundTruthParse, RaggedListsAndTextAreNotNumbers) {
  for (const char* text : {"[[1, 2], [3]]", "[1, [2]]", "[[1], 2]", "('joint', 0.99)", "[1, 2", "", "[1,, 2]"}) {
    EXPECT_FALSE(parse_numbers(text)) << text;
  }
  EXPECT_NE(parse_numbers("[[1, 2], [3]]").error().str().find("ragged"), std::string::npos);
}

TEST(GroundTruthParse, ALineWithoutExactlyOneTabNamesFileAndLine) {
  EXPECT_EQ(error_of(parse_ground_truth("a.ppm\t[1]\nb.ppm [2]\n", "gt_fp32.txt", ResultFormat::kTipc)),
            "gt_fp32.txt:2: expected `<image path>\\t<result>` with exactly one TAB, found 0");
  EXPECT_EQ(error_of(parse_ground_truth("a.ppm\t[1]\t[2]\n", "gt_fp32.txt", ResultFormat::kTipc)),
            "gt_fp32.txt:1: expected `<image path>\\t<result>` with exactly one TAB, found 2");
}

TEST(GroundTruthParse, AnUnparseableResultNamesFileLineAndKey) {
  const auto truth = parse_ground_truth("\nx/a.ppm\t[1]\nx/b.ppm\tcat\n", "gt_fp32.txt", ResultFormat::kTipc);
  ASSERT_FALSE(truth);
  EXPECT_EQ(truth.error().diagnostics[0].key, "b.ppm");
  EXPECT_NE(truth.error().str().find("gt_fp32.txt:3: the result of 'b.ppm' is neither a JSON list of numbers"),
            std::string::npos)
      << truth.error().str();
  EXPECT_NE(truth.error().str().find("'cat'"), std::string::npos);
}

TEST(GroundTruthParse, AKeyGivenTwiceOrAnEmptyFileIsAnError) {
  EXPECT_EQ(error_of(parse_ground_truth("a/x.ppm\t[1]\nb/x.ppm\t[2]\n", "gt_fp32.txt", ResultFormat::kTipc)),
            "gt_fp32.txt:2: key 'x.ppm' was already given on line 1");
  EXPECT_EQ(error_of(parse_ground_truth("\n\r\n", "gt_fp32.txt", ResultFormat::kTipc)),
            "gt_fp32.txt: holds no results");
}

TEST(GroundTruthParse, CrLfLinesAreRead) {
  const auto truth = parse_ground_truth("a.ppm\t[1, 2]\r\n", "gt_fp32.txt", ResultFormat::kTipc);
  ASSERT_TRUE(truth) << truth.error().str();
  EXPECT_EQ(truth->entries[0].expected.values, (std::vector<double>{1, 2}));
}

TEST(GroundTruthFilesByPrecision, PrecisionComesFromTheBasenameInUpstreamOrder) {
  EXPECT_EQ(precision_in_name("results/python_alexnet_results_fp32.txt"), Precision::kFp32);
  EXPECT_EQ(precision_in_name("out/python_infer_precision_fp16_batchsize_1.log"), Precision::kFp16);
  EXPECT_EQ(precision_in_name("x_int8.log"), Precision::kInt8);
  EXPECT_EQ(precision_in_name("fp32_dir/python_infer_batchsize_1.log"), std::nullopt);  // the folder does not count
  EXPECT_EQ(precision_in_name("a_fp16_fp32.txt"), Precision::kFp32);
}

TEST(GroundTruthFilesByPrecision, FilesAreSortedByPrecisionAndOthersIgnored) {
  const auto files = pick_ground_truth_files({"r/m_fp16.txt", "r/m_fp32.txt", "r/README.txt"});
  ASSERT_TRUE(files) << files.error().str();
  EXPECT_EQ(files->by_precision.at(Precision::kFp32), "r/m_fp32.txt");
  EXPECT_EQ(files->by_precision.at(Precision::kFp16), "r/m_fp16.txt");
  EXPECT_EQ(files->ignored, std::vector<std::string>{"r/README.txt"});
}

TEST(GroundTruthFilesByPrecision, NoFp32OrTwoFilesOfOnePrecisionAreErrors) {
  const auto no_fp32 = pick_ground_truth_files({"r/m_fp16.txt", "r/notes.txt"});
  ASSERT_FALSE(no_fp32);
  EXPECT_NE(no_fp32.error().str().find("no fp32 ground truth"), std::string::npos);
  EXPECT_NE(no_fp32.error().str().find("r/m_fp16.txt, r/notes.txt"), std::string::npos) << no_fp32.error().str();
  const auto twice = pick_ground_truth_files({"r/a_fp32.txt", "r/b_fp32.txt"});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().str(), "two fp32 ground-truth files match: r/a_fp32.txt and r/b_fp32.txt");
}

TEST(GroundTruthAllclose, TheToleranceEdgeAtolPlusRtolTimesPredPasses) {
  const AllcloseTolerance tolerance{0.5, 0.25};  // 0.5 + 0.25 * |2| = 1, exactly representable
  const auto edge = allclose(numbers({1}, {3}), numbers({1}, {2}), tolerance);
  EXPECT_TRUE(edge.passed());
  EXPECT_EQ(edge.max_abs_diff, 1.0);
  const auto beyond = allclose(numbers({1}, {std::nextafter(3.0, 4.0)}), numbers({1}, {2}), tolerance);
  EXPECT_FALSE(beyond.passed());
  ASSERT_TRUE(beyond.worst);
  EXPECT_EQ(beyond.worst->tolerance, 1.0);
  // The prediction is the reference side: |gt| does not widen the tolerance.
  EXPECT_FALSE(allclose(numbers({1}, {2}), numbers({1}, {std::nextafter(1.0, 0.0)}), tolerance).passed());
}

TEST(GroundTruthAllclose, NanEqualsNanAndInfinitiesOnlyThemselves) {
  const AllcloseTolerance tolerance{};
  EXPECT_TRUE(allclose(numbers({3}, {kNaN, kInf, -kInf}), numbers({3}, {kNaN, kInf, -kInf}), tolerance).passed());
  const auto nan_vs_number = allclose(numbers({2}, {1, kNaN}), numbers({2}, {1, 1}), tolerance);
  EXPECT_FALSE(nan_vs_number.passed());
  EXPECT_EQ(nan_vs_number.worst->abs_diff, kInf);
  EXPECT_EQ(nan_vs_number.worst->index, std::vector<std::size_t>{1});
  EXPECT_FALSE(allclose(numbers({1}, {kInf}), numbers({1}, {-kInf}), tolerance).passed());
  EXPECT_FALSE(allclose(numbers({1}, {1e300}), numbers({1}, {kInf}), tolerance).passed());  // tolerance is inf
}

TEST(GroundTruthAllclose, ShapesMustBeEqual) {
  const auto result = allclose(numbers({2}, {1, 2}), numbers({1, 2}, {1, 2}), AllcloseTolerance{});
  EXPECT_FALSE(result.shapes_match);
  EXPECT_FALSE(result.passed());
  EXPECT_FALSE(result.worst);
}

TEST(GroundTruthAllclose, TheWorstElementIsTheLargestMismatchWithItsIndex) {
  // [0][1] is far off in absolute terms but within the relative tolerance; [1][0] fails.
  const AllcloseTolerance tolerance{0, 0.1};
  const auto result = allclose(numbers({2, 2}, {0, 1005, 3, 4}), numbers({2, 2}, {0, 1000, 2, 4}), tolerance);
  EXPECT_EQ(result.mismatched, 1u);
  EXPECT_EQ(result.max_abs_diff, 5.0);
  ASSERT_TRUE(result.worst);
  EXPECT_EQ(result.worst->index, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(result.worst->expected, 3);
  EXPECT_EQ(result.worst->predicted, 2);
  EXPECT_DOUBLE_EQ(result.worst->tolerance, 0.2);
}

TEST(GroundTruthLabels, ClassIdsMustBeEqualWhileScoresNeedOnlyBeFinite) {
  const NumberArray truth = parsed("[0, 0.913780]");
  const auto other_score = compare_labels(truth, parsed("[0, 0.5]"));
  EXPECT_TRUE(other_score.passed());
  EXPECT_EQ(other_score.max_abs_diff, 0) << "scores are not compared";
  ASSERT_TRUE(other_score.worst);
  EXPECT_EQ(other_score.worst->index, std::vector<std::size_t>{0}) << "the class id, the only element compared";

  const auto other_class = compare_labels(truth, parsed("[2, 0.913780]"));
  EXPECT_FALSE(other_class.passed());
  EXPECT_EQ(other_class.mismatched, 1u);
  EXPECT_EQ(other_class.worst->index, std::vector<std::size_t>{0});
  EXPECT_EQ(other_class.worst->abs_diff, 2);
  EXPECT_EQ(other_class.worst->tolerance, 0);

  for (const char* not_finite : {"[0, NaN]", "[0, Infinity]"}) {
    const auto result = compare_labels(truth, parsed(not_finite));
    EXPECT_FALSE(result.passed()) << not_finite;
    EXPECT_EQ(result.worst->index, std::vector<std::size_t>{1}) << not_finite;
    EXPECT_EQ(result.worst->tolerance, kInf) << "only finiteness was asked: " << not_finite;
  }
  EXPECT_FALSE(compare_labels(truth, parsed("[0, 0.9, 1]")).shapes_match);
  // A class id the ground truth writes as an integer equals the same number written as a real.
  EXPECT_TRUE(compare_labels(truth, parsed("[0.0, 0.1]")).passed());
}

TEST(GroundTruthLabels, ALogWithOtherScoresPassesAndAFlippedClassFails) {
  const CompareRule labels{Comparison::kLabels, {}};
  const std::string other_scores = "circle_000.ppm\t[0, 0.61]\nsquare_001.ppm\t[1, 0.99]\n";
  const auto passing = check_log("infer_fp32.log", other_scores, demo_truths(), ResultFormat::kTipc, labels);
  ASSERT_TRUE(passing) << passing.error().str();
  EXPECT_EQ(passing->status, Verdict::kPass);
  EXPECT_EQ(check_log("infer_fp32.log", other_scores, demo_truths(), ResultFormat::kTipc, {})->status, Verdict::kFail)
      << "allclose, the default, holds the scores";

  const std::string flipped = "circle_000.ppm\t[3, 0.91378]\nsquare_001.ppm\t[1, 0.790844]\n";
  const auto failing = check_log("infer_fp32.log", flipped, demo_truths(), ResultFormat::kTipc, labels);
  ASSERT_TRUE(failing);
  EXPECT_EQ(failing->status, Verdict::kFail);
  EXPECT_EQ(failing->keys[0].status, Verdict::kFail);
  EXPECT_EQ(failing->keys[1].status, Verdict::kPass);
  EXPECT_STREQ(to_string(Comparison::kLabels), "labels");
}

TEST(GroundTruthCheckLog, ThePredictionFollowsTheKeysLastOccurrenceOnTheFirstLineWithIt) {
  const std::string log =
      "loading ./lite_data/alexnet/test/circle/circle_000.ppm\n"
      "infer result (circle): ./lite_data/alexnet/test/circle/circle_000.ppm\t[0, 0.9138]\n"
      "infer result (square): ./lite_data/alexnet/test/square/square_001.ppm\t[1, 0.790844]\n";
  // The first line holding circle_000.ppm has no result after it: that is upstream's rule,
  // so a log that names images before their results fails.
  const auto loading_first = check_log("infer_fp32.log", log, demo_truths(), ResultFormat::kTipc, {});
  ASSERT_FALSE(loading_first);
  EXPECT_NE(loading_first.error().str().find("infer_fp32.log:1: the result of 'circle_000.ppm'"), std::string::npos)
      << loading_first.error().str();

  const auto check =
      check_log("infer_fp32.log", log.substr(log.find('\n') + 1), demo_truths(), ResultFormat::kTipc, {});
  ASSERT_TRUE(check) << check.error().str();
  EXPECT_EQ(check->status, Verdict::kPass);
  EXPECT_EQ(check->gt_file, "results_fp32.txt");
  ASSERT_EQ(check->keys.size(), 2u);
  EXPECT_EQ(check->keys[0].log_line, 1);
  EXPECT_EQ(check->keys[0].pred_text, "[0, 0.9138]");
  EXPECT_NEAR(check->keys[0].allclose->max_abs_diff, 2e-5, 1e-12);
}

TEST(GroundTruthCheckLog, EveryMismatchAndMissingKeyIsReported) {
  const std::string log = "infer result (circle): x/circle_000.ppm\t[0, 0.95]\n";
  const auto check = check_log("infer_fp32.log", log, demo_truths(), ResultFormat::kTipc, {});
  ASSERT_TRUE(check) << check.error().str();
  EXPECT_EQ(check->status, Verdict::kFail);
  EXPECT_EQ(check->reason, "2 of 2 keys failed (1 not in the log)");
  EXPECT_EQ(check->keys[0].status, Verdict::kFail);
  EXPECT_EQ(check->keys[0].reason, "1 of 2 elements differ");
  EXPECT_EQ(check->keys[1].status, Verdict::kMissing);
  EXPECT_EQ(check->keys[1].reason, "not in the log");
  EXPECT_EQ(check->keys[1].log_line, 0);
}

TEST(GroundTruthCheckLog, AShapeMismatchFailsTheKey) {
  const std::string log = "circle_000.ppm\t[0, 0.91378, 1]\nsquare_001.ppm\t[1, 0.790844]\n";
  const auto check = check_log("infer_fp32.log", log, demo_truths(), ResultFormat::kTipc, {});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->keys[0].status, Verdict::kFail);
  EXPECT_EQ(check->keys[0].reason, "shape (2,) (gt) vs (3,) (pred)");
}

TEST(GroundTruthCheckLog, KeysAreLiteralTextNotRegularExpressions) {
  // Upstream greps for the key, where "." matches any character: "circle_000xppm" would do.
  const std::string log = "circle_000xppm\t[0, 0.91378]\nsquare_001.ppm\t[1, 0.790844]\n";
  const auto check = check_log("infer_fp32.log", log, demo_truths(), ResultFormat::kTipc, {});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->keys[0].status, Verdict::kMissing);
}

TEST(GroundTruthCheckLog, LogsWithoutAPrecisionOrWithoutItsGroundTruthAreSkipped) {
  EXPECT_EQ(why_skipped("out/python_infer_batchsize_1.log", demo_truths()),
            "no precision (fp32, fp16 or int8) in the file name");
  EXPECT_EQ(why_skipped("out/python_infer_precision_int8.log", demo_truths()),
            "no int8 ground truth (found: fp32 results_fp32.txt)");
  EXPECT_EQ(why_skipped("out/python_infer_precision_fp32.log", demo_truths()), std::nullopt);
}

TEST(GroundTruthVideo, TopOneLinesAreKeysAndTheLastLogLineWins) {
  const auto truth = parse_ground_truth(
      "Current video file: ./data/example.avi\n        top-1 class: 5\n"
      "        top-1 score: 0.9907386302947998\n",
      "video_fp32.txt", ResultFormat::kVideo);
  ASSERT_TRUE(truth) << truth.error().str();
  ASSERT_EQ(truth->entries.size(), 2u);
  EXPECT_EQ(truth->entries[0].key, "top-1 class");
  EXPECT_EQ(truth->entries[1].line, 3);
  GroundTruths truths;
  truths.emplace(Precision::kFp32, *truth);
  const std::string log =
      "\ttop-1 class: 3\n\ttop-1 score: 0.5\nCurrent video file: ./data/example.avi\n\ttop-1 class: 5\n"
      "\ttop-1 score: 0.99074\n";
  const auto check = check_log("infer_fp32.log", log, truths, ResultFormat::kVideo, {});
  ASSERT_TRUE(check) << check.error().str();
  EXPECT_EQ(check->status, Verdict::kPass) << check->reason;
  EXPECT_EQ(check->keys[0].log_line, 4);
  EXPECT_EQ(check->keys[1].pred_text, "0.99074");
}

TEST(GroundTruthMetric, NameValueLinesOnBothSides) {
  const auto truth =
      parse_ground_truth("Metric psnr: 27.3670\nMetric ssim: 0.8021\n", "gan_fp32.txt", ResultFormat::kMetric);
  ASSERT_TRUE(truth) << truth.error().str();
  EXPECT_EQ(truth->entries[0].key, "Metric psnr");
  GroundTruths truths;
  truths.emplace(Precision::kFp32, *truth);
  const auto check = check_log("metric_fp32.txt", "Metric psnr: 1\nMetric psnr: 27.367\nother text\nMetric ssim: 0.9\n",
                               truths, ResultFormat::kMetric, {});
  ASSERT_TRUE(check) << check.error().str();
  EXPECT_EQ(check->keys[0].status, Verdict::kPass);
  EXPECT_EQ(check->keys[0].log_line, 2);
  EXPECT_EQ(check->keys[1].status, Verdict::kFail);
  EXPECT_EQ(error_of(parse_ground_truth("time: 12:30\n", "gan_fp32.txt", ResultFormat::kMetric)),
            "gan_fp32.txt:1: expected `metric_name:value` with exactly one ':', found 2");
}

TEST(GroundTruthReport, ExitCodeNeedsOneCheckedLogAndNoFailure) {
  CompareReport report;
  report.logs.push_back(LogCheck{"a.log", Verdict::kSkipped, "no precision", std::nullopt, "", {}});
  EXPECT_EQ(report.exit_code(), kExitFailed);
  report.logs.push_back(LogCheck{"b_fp32.log", Verdict::kPass, "", Precision::kFp32, "gt_fp32.txt", {}});
  EXPECT_EQ(report.exit_code(), kExitPassed);
  report.logs.push_back(LogCheck{"c_fp32.log", Verdict::kFail, "1 of 1 keys failed", Precision::kFp32, "gt", {}});
  EXPECT_EQ(report.exit_code(), kExitFailed);
  EXPECT_EQ(report.count(Verdict::kSkipped), 1u);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
