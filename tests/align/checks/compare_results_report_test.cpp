#include "align/checks/compare_results_report.h"

#include <limits>

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

CompareResultsRun sample_run() {
  AllcloseResult mismatch;
  mismatch.elements = 2;
  mismatch.mismatched = 1;
  mismatch.max_abs_diff = 0.05;
  mismatch.worst = WorstElement{{1}, 0.91378, 0.96378, 0.05, 0.00196378};
  AllcloseResult shapes;
  shapes.shapes_match = false;
  const KeyComparison failed{"img.jpg", Verdict::kFail, "1 of 2 elements differ", 1,
                             3,         "[0, 0.91378]", "[0, 0.96378]",           mismatch};
  const KeyComparison missing{"other.jpg", Verdict::kMissing, "not in the log", 2, 0, "[1]", "", std::nullopt};
  const KeyComparison shape{"third.jpg", Verdict::kFail, "shapes differ", 3, 4, "[1]", "[1, 2]", shapes};
  CompareResultsRun run{"tipc", {Comparison::kAllclose, {1e-3, 1e-3}}, {{Precision::kFp32, "gt_fp32.txt"}}, {}};
  run.report.logs = {{"infer_fp32.log", Verdict::kFail, "", Precision::kFp32, "gt_fp32.txt", {failed, missing, shape}},
                     {"infer.log", Verdict::kSkipped, "no precision in the file name", std::nullopt, "", {}}};
  return run;
}

TEST(CompareResultsReport, JsonReadsBackAsWritten) {
  const auto json = to_json(sample_run());
  const auto read = compare_results_from_json(json, "check.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(to_json(*read).dump(), json.dump());  // text: NaN, written as null, is not equal to itself
  const KeyComparison& first = read->report.logs[0].keys[0];
  ASSERT_TRUE(first.allclose && first.allclose->worst);
  EXPECT_EQ(first.allclose->worst->index, std::vector<std::size_t>{1});
  EXPECT_FALSE(read->report.logs[0].keys[1].allclose);                // missing from the log
  EXPECT_FALSE(read->report.logs[0].keys[2].allclose->shapes_match);  // read, shapes differ
}

TEST(CompareResultsReport, LabelsHaveNoTolerance) {
  CompareResultsRun run = sample_run();
  run.rule = {Comparison::kLabels, {}};
  const auto json = to_json(run);
  EXPECT_TRUE(json["atol"].is_null());
  const auto read = compare_results_from_json(json, "check.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->rule.comparison, Comparison::kLabels);
}

TEST(CompareResultsReport, AnUnknownVerdictIsNamedWithItsPath) {
  auto json = to_json(sample_run());
  json["logs"][0]["keys"][1]["status"] = "LOST";
  const auto read = compare_results_from_json(json, "check.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("logs[0].keys[1].status"), std::string::npos) << read.error().str();
}

TEST(CompareResultsReport, TextListsTheKeysThatDidNotPass) {
  const std::string text = render_compare_results_text(sample_run());
  EXPECT_NE(text.find("FAIL    infer_fp32.log (vs gt_fp32.txt, 3 keys)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    MISSING other.jpg: not in the log"), std::string::npos) << text;
  EXPECT_NE(text.find("SKIPPED infer.log: no precision in the file name\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tipc-run compare-results: 0 passed, 1 failed, 1 skipped (atol 0.001, rtol 0.001)\n"),
            std::string::npos)
      << text;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
